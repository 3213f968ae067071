#include "views/balances/CustomerSearchField.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QStandardItemModel>
#include <QTimer>

namespace md::views {

namespace {
constexpr int IdRole = Qt::UserRole;
}

CustomerSearchField::CustomerSearchField(models::FilterChoices *choices, QWidget *parent)
    : QLineEdit(parent)
    , m_choices(choices)
    , m_found(new QStandardItemModel(this))
    , m_completer(new QCompleter(m_found, this))
    , m_settle(new QTimer(this))
{
    setObjectName(QStringLiteral("customerFilter"));
    setPlaceholderText(tr("all customers: type part of an id, name or email"));
    setClearButtonEnabled(true);
    // The hint whole: it is how a person learns what may be typed here.
    setMinimumWidth(fontMetrics().horizontalAdvance(placeholderText()) +
                    4 * fontMetrics().averageCharWidth() + 16);
    // The server matched already: the list shows its answer as it is, and
    // choosing a line puts its id in the field.
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setCompletionRole(IdRole);
    setCompleter(m_completer);
    m_settle->setSingleShot(true);
    m_settle->setInterval(SettleMs);

    connect(this, &QLineEdit::textEdited, this, [this](const QString &text) {
        m_resolveOnAnswer = false;
        if (text.trimmed().isEmpty()) {
            m_settle->stop();
            return choose(QString()); // cleared: all customers again
        }
        m_settle->start();
    });
    connect(m_settle, &QTimer::timeout, this, [this] { m_choices->searchCustomers(text()); });
    connect(m_choices, &models::FilterChoices::customersFound, this,
            &CustomerSearchField::showFound);
    connect(m_completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
            [this](const QModelIndex &index) { choose(index.data(IdRole).toString()); });
    connect(this, &QLineEdit::returnPressed, this, &CustomerSearchField::resolve);
}

void CustomerSearchField::setCustomerId(const QString &id)
{
    m_chosen = id;
    setText(id);
}

void CustomerSearchField::choose(const QString &id)
{
    m_resolveOnAnswer = false;
    if (text() != id)
        setText(id);
    if (id == m_chosen)
        return;
    m_chosen = id;
    Q_EMIT chosen();
}

void CustomerSearchField::showFound(const QString &text,
                                    const QList<models::FilterChoices::Customer> &found, bool more)
{
    if (text != this->text().trimmed())
        return; // typed on since
    m_foundFor = text;
    m_moreFound = more;
    m_found->clear();
    for (const models::FilterChoices::Customer &customer : found) {
        QString line = customer.id;
        if (!customer.name.isEmpty())
            line += tr(" — %1").arg(customer.name);
        if (!customer.email.isEmpty())
            line += tr(" <%1>").arg(customer.email);
        auto *item = new QStandardItem(line);
        item->setData(customer.id, IdRole);
        m_found->appendRow(item);
    }
    if (m_resolveOnAnswer)
        return resolve();
    if (hasFocus() && !found.isEmpty())
        m_completer->complete();
}

void CustomerSearchField::resolve()
{
    const QString typed = text().trimmed();
    if (typed.isEmpty())
        return choose(QString());
    if (typed == m_chosen)
        return;
    if (m_foundFor != typed) { // the answer for this text is still to come
        m_resolveOnAnswer = true;
        m_settle->stop();
        m_choices->searchCustomers(typed);
        return;
    }
    m_resolveOnAnswer = false;
    QStringList ids;
    for (int row = 0; row < m_found->rowCount(); ++row)
        ids.append(m_found->index(row, 0).data(IdRole).toString());
    if (ids.contains(typed) || (ids.size() == 1 && !m_moreFound))
        return choose(ids.contains(typed) ? typed : ids.first());
    if (ids.isEmpty())
        return Q_EMIT statusMessage(
            tr("No customer's id, name or email contains \"%1\". Check the spelling, or clear the "
               "field for all customers.")
                .arg(typed));
    m_completer->complete();
    Q_EMIT statusMessage(
        m_moreFound
            ? tr("More than %n customer(s) match \"%1\": type more of the id, name or "
                 "email, or choose one from the list.",
                 nullptr, int(ids.size()))
                  .arg(typed)
            : tr("%n customer(s) match \"%1\": choose one from the list.", nullptr, int(ids.size()))
                  .arg(typed));
}

} // namespace md::views
