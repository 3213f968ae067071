// Asynchronous calls that were accepted and then failed (docs/api.md,
// "Failed events"), with their reason: Retry puts the selected ones back to
// be applied (after the cause is fixed), Discard drops them for good.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class FailedEventModel;
}

namespace md::views {

class FailedEventsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FailedEventsPanel)

public:
    explicit FailedEventsPanel(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::FailedEventModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QPushButton *retryButton() const { return m_retry; }
    QPushButton *discardButton() const { return m_discard; }
    void refresh();

Q_SIGNALS:
    // Calls were retried or discarded: the counts elsewhere are out of date.
    void changed();

private:
    void act(bool retry);
    QStringList selectedIds() const;
    void updateState();

    models::FailedEventModel *m_model;
    QLabel *m_title;
    QTableView *m_table;
    QPushButton *m_retry;
    QPushButton *m_discard;
    QLabel *m_status;
};

} // namespace md::views
