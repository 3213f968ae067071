#include "views/balances/AdjustBalanceDialog.h"

#include "models/balances/BalanceAdjustEdit.h"
#include "models/common/AmountFormat.h"
#include "models/common/FieldWords.h"
#include "views/common/ChangeReview.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace md::views {

using models::BalanceAdjustEdit;

AdjustBalanceDialog::AdjustBalanceDialog(backend::BillingBackend *backend,
                                         const api::BalanceRow &row, QWidget *parent)
    : FormDialog(parent)
    , m_backend(backend)
    , m_rows{row}
    , m_amount(new QLineEdit(this))
    , m_reason(new QLineEdit(this))
    , m_target(new QComboBox(this))
    , m_remaining(new QLabel(models::formatAmount(row.remaining, locale()), this))
    , m_alternatives(new QLabel(this))
    , m_lasting(new QLabel(this))
    , m_layout(new QFormLayout)
{
    setWindowTitle(tr("Adjust balance %1").arg(row.id));
    resize(620, 420);
    m_amount->setObjectName(QStringLiteral("adjustAmount"));
    m_amount->setPlaceholderText(
        tr("e.g. %1 to add, %2 to take away")
            .arg(models::formatAmount(api::Decimal::fromInteger(100), locale(), 0),
                 models::formatAmount(*api::Decimal::parse("-12.5"), locale())));
    m_reason->setObjectName(QStringLiteral("adjustReason"));
    // No setMaxLength: it counts UTF-16 units, the rule counts characters
    // (services/api/TextRule.h); the form says when a reason is too long.
    m_reason->setPlaceholderText(tr("Why: a credit note, a goodwill gesture, a correction…"));
    m_target->setObjectName(QStringLiteral("adjustTarget"));
    m_target->addItem(BalanceAdjustEdit::resets(row) ? tr("%1 (resets)").arg(row.id) : row.id);
    m_alternatives->setWordWrap(true);
    m_lasting->setObjectName(QStringLiteral("adjustLasting"));
    m_lasting->setWordWrap(true);
    auto *form = new QWidget(this);
    auto *layout = m_layout;
    form->setLayout(layout);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addRow(tr("Balance:"),
                   new QLabel(tr("%1 · %2 · %3").arg(row.customerId, row.featureId, row.id), form));
    layout->addRow(tr("Adjus&t:"), m_target);
    layout->addRow(m_alternatives);
    layout->addRow(tr("Remaining now:"), m_remaining);
    layout->addRow(tr("&Amount:"), m_amount);
    layout->addRow(tr("&Reason:"), m_reason);
    layout->addRow(m_lasting);
    auto *note = new QLabel(tr("The change is written to the balance's ledger and, with its "
                               "reason, to the audit log."),
                            form);
    note->setWordWrap(true);
    layout->addRow(note);
    setForm(form);
    layout->setRowVisible(m_target, false);
    saveButton()->setText(tr("A&djust"));
    connect(m_amount, &QLineEdit::textChanged, this, [this] { check(); });
    connect(m_reason, &QLineEdit::textChanged, this, [this] { check(); });
    connect(m_target, &QComboBox::currentIndexChanged, this, &AdjustBalanceDialog::targetChanged);
    // A reset puts the balance back to its grant: where would a credit last?
    if (BalanceAdjustEdit::resets(row)) {
        m_alternatives->setText(
            tr("Looking for a balance of %1 that does not reset…").arg(row.featureId));
        BalanceAdjustEdit::lastingBalances(backend, row)
            .then(this, [this](const api::Result<QList<api::BalanceRow>> &lasting) {
                if (!lasting)
                    m_alternatives->setText(
                        tr("The balances that do not reset could not be read: %1")
                            .arg(lasting.error().message));
                else
                    offer(lasting.value());
            });
    } else {
        m_alternatives->hide();
    }
    check();
}

void AdjustBalanceDialog::offer(const QList<api::BalanceRow> &lasting)
{
    for (const api::BalanceRow &balance : lasting) {
        m_rows.append(balance);
        m_target->addItem(
            balance.expiresAt
                ? tr("%1 (does not reset; expires on %2)")
                      .arg(balance.id, models::formatTimestamp(*balance.expiresAt, locale()))
                : tr("%1 (does not reset)").arg(balance.id));
    }
    m_target->addItem(tr("A new balance of %1 that does not reset").arg(m_rows.first().featureId));
    m_alternatives->setText(
        lasting.isEmpty()
            ? tr("A credit on this balance ends at its reset. %1 holds no balance of %2 that "
                 "does not reset: choose a new one above, where the credit lasts until it is "
                 "used.")
                  .arg(m_rows.first().customerId, m_rows.first().featureId)
            : tr("A credit on this balance ends at its reset; one on a balance that does not "
                 "reset lasts until it is used. Choose one above, or a new one."));
    m_layout->setRowVisible(m_target, true);
}

const api::BalanceRow &AdjustBalanceDialog::target() const
{
    return m_rows.at(std::clamp<qsizetype>(m_target->currentIndex(), 0, m_rows.size() - 1));
}

bool AdjustBalanceDialog::creating() const
{
    return m_target->currentIndex() >= m_rows.size();
}

void AdjustBalanceDialog::targetChanged()
{
    m_remaining->setText(creating() ? tr("nothing yet: the balance is made with the amount")
                                    : models::formatAmount(target().remaining, locale()));
    saveButton()->setText(creating() ? tr("&Make balance") : tr("A&djust"));
    check();
}

QString AdjustBalanceDialog::changes(QList<models::FieldChange> *changes)
{
    m_request.reset();
    m_creation.reset();
    m_lasting->clear();
    if (m_amount->text().trimmed().isEmpty() && m_reason->text().trimmed().isEmpty())
        return {}; // nothing typed yet: nothing to point at
    if (creating()) {
        auto creation = BalanceAdjustEdit::creation(m_rows.first(), m_amount->text(),
                                                    m_reason->text(), locale());
        if (!creation)
            return models::FieldWords::sentence(creation.error());
        m_creation = creation.value();
        m_lasting->setText(BalanceAdjustEdit::lastingNew(*m_creation, locale()));
        *changes = BalanceAdjustEdit::creationChanges(*m_creation, locale());
        return {};
    }
    if (const auto amount = BalanceAdjustEdit::amountFrom(m_amount->text(), locale());
        amount && !amount->isZero())
        m_lasting->setText(BalanceAdjustEdit::lasting(target(), *amount, locale()));
    auto request =
        BalanceAdjustEdit::request(target(), m_amount->text(), m_reason->text(), locale());
    if (!request)
        return models::FieldWords::sentence(request.error());
    m_request = request.value();
    *changes = BalanceAdjustEdit::changes(target(), *m_request, locale());
    return {};
}

void AdjustBalanceDialog::reviewing()
{
    if (m_creation)
        review()->setNote(BalanceAdjustEdit::lastingNew(*m_creation, locale()));
    else if (m_request)
        review()->setNote(BalanceAdjustEdit::lasting(target(), m_request->amount, locale()));
}

void AdjustBalanceDialog::submit()
{
    if (m_creation) {
        BalanceAdjustEdit::create(m_backend, *m_creation)
            .then(this, [this](const api::Result<api::LedgerEntry> &entry) {
                if (!entry) {
                    saveFailed(entry.error());
                    return;
                }
                Q_EMIT created(entry.value());
                accept();
            });
        return;
    }
    if (!m_request)
        return;
    BalanceAdjustEdit::submit(m_backend, *m_request)
        .then(this, [this](const api::Result<api::LedgerEntry> &entry) {
            if (!entry) {
                saveFailed(entry.error());
                return;
            }
            Q_EMIT adjusted(entry.value());
            accept();
        });
}

} // namespace md::views
