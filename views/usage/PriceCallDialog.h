// "Price a call": pick a catalogue model, enter token counts, and see what
// the call costs per pool, the markup applied and where it came from (the
// customer's AI credit system), before optionally recording it for them.
#pragma once

#include "models/usage/CallPricer.h"
#include "services/api/CallQuote.h"
#include "services/api/TrackTokens.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace md::backend {
class BillingBackend;
}

namespace md::views {

class PriceCallDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PriceCallDialog)

public:
    explicit PriceCallDialog(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void setCustomer(const QString &customerId);
    void setModel(const QString &modelId);
    // Input, output, cache read, cache write, reasoning, audio in, audio out.
    void setTokens(const QList<qint64> &tokens);
    const std::optional<api::CallQuote> &quote() const { return m_quote; }
    QPushButton *recordButton() const { return m_record; }
    QString resultText() const;

Q_SIGNALS:
    void quoted();
    // A call was recorded for a customer (the Usage page refreshes).
    void recorded(const QString &customerId);

private:
    api::TrackTokensRequest request() const;
    void requestQuote();
    void showQuote(const api::CallQuote &quote);
    void record();

    models::CallPricer m_pricer;
    QComboBox *m_model;
    QLineEdit *m_customer;
    QList<QSpinBox *> m_tokens;
    QTableWidget *m_pools;
    QLabel *m_result;
    QPushButton *m_record;
    QTimer *m_debounce;
    quint64 m_generation = 0;
    std::optional<api::CallQuote> m_quote;
};

} // namespace md::views
