// The Balances filter's customer field: typing part of an id, name or email
// lists the customers that match (customers.list's search, asked once the
// typing settles), each with its name and email; choosing one, or Return on
// text that names one customer, sets the filter. Text that names none or
// several is never sent as a filter: the field says what to do instead.
#pragma once

#include "models/balances/FilterChoices.h"

#include <QLineEdit>

class QCompleter;
class QStandardItemModel;
class QTimer;

namespace md::views {

class CustomerSearchField final : public QLineEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerSearchField)

public:
    explicit CustomerSearchField(models::FilterChoices *choices, QWidget *parent = nullptr);

    // The customer the filter shows: empty for all customers.
    QString customerId() const { return m_chosen; }
    // Shows `id` as chosen, without announcing it.
    void setCustomerId(const QString &id);

    // How long typing settles before the search is asked.
    static constexpr int SettleMs = 200;

Q_SIGNALS:
    // A customer was chosen, or the field cleared for all customers.
    void chosen();
    void statusMessage(const QString &message);

private:
    void choose(const QString &id);
    void showFound(const QString &text, const QList<models::FilterChoices::Customer> &found,
                   bool more);
    // Return: the typed text's one customer, or a word on why there is none.
    void resolve();

    models::FilterChoices *m_choices;
    QStandardItemModel *m_found;
    QCompleter *m_completer;
    QTimer *m_settle;
    QString m_chosen;
    QString m_foundFor; // the text m_found answers
    bool m_moreFound = false;
    bool m_resolveOnAnswer = false;
};

} // namespace md::views
