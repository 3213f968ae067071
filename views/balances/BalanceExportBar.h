// The bar under the Balances table while an export, a report or a printout
// runs: what it is doing, how far it is, and Cancel (disabled once a
// printer has begun, since a printer cannot take back pages it was sent);
// when it ends, a status line or the reason it failed.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace md::models {
class BalanceExport;
}

namespace md::views {

class BalanceExportBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceExportBar)

public:
    // What a run makes, for its messages.
    enum class Making { Files, Report, Printout };

    BalanceExportBar(models::BalanceExport *exporter, QWidget *parent = nullptr);

    // Shows the bar for a run `exporter` has just started.
    void started(Making making);

Q_SIGNALS:
    void statusMessage(const QString &message);

private:
    models::BalanceExport *m_export;
    QProgressBar *m_progress;
    QLabel *m_label;
    QPushButton *m_cancel;
    Making m_making = Making::Files;
};

} // namespace md::views
