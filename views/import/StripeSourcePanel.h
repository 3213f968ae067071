// The Source step's "From Stripe" (docs/user-guide.md, "Importing from
// Stripe"): Read Stripe (progress after each page, Cancel), then each
// Stripe price with the plan it maps to (matched, remembered, offered by
// product name, or left out), and what that makes: one body per customer,
// handed to the wizard as its source (`bodiesReady`).
#pragma once

#include <QHash>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace md::models {
class ImportSession;
struct StripePrice;
} // namespace md::models

namespace md::views {

class StripeSourcePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StripeSourcePanel)

public:
    enum Column { PriceColumn, ProductColumn, SubscriptionsColumn, PlanColumn, ColumnCount };

    explicit StripeSourcePanel(models::ImportSession *session, QWidget *parent = nullptr);

    QPushButton *readButton() const { return m_read; }
    QPushButton *cancelButton() const { return m_cancel; }
    QTableWidget *prices() const { return m_prices; }
    QLabel *status() const { return m_status; }
    // Maps a price (the plan combo of its row; "" leaves it out).
    void mapPrice(const QString &priceId, const QString &plan);

Q_SIGNALS:
    // The import bodies (JSON Lines) and the customers to review; empty
    // bodies when nothing is left to import.
    void bodiesReady(const QByteArray &jsonLines, const QHash<QString, QString> &review);

private:
    void showPrices();
    // `remember`: the user chose, so the mapping is saved.
    void rebuild(bool remember);

    models::ImportSession *m_session;
    QPushButton *m_read;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_prices;
    QList<QString> m_priceIds; // by row
};

} // namespace md::views
