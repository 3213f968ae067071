#include "views/AdjustBalanceDialog.h"

#include "models/AmountFormat.h"
#include "models/BalanceAdjustEdit.h"
#include "models/FieldWords.h"

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
    , m_row(row)
    , m_amount(new QLineEdit(this))
    , m_reason(new QLineEdit(this))
{
    setWindowTitle(tr("Adjust balance %1").arg(row.id));
    resize(620, 360);
    m_amount->setObjectName(QStringLiteral("adjustAmount"));
    m_amount->setPlaceholderText(
        tr("e.g. %1 to add, %2 to take away")
            .arg(models::formatAmount(api::Decimal::fromInteger(100), locale(), 0),
                 models::formatAmount(*api::Decimal::parse("-12.5"), locale())));
    m_reason->setObjectName(QStringLiteral("adjustReason"));
    // No setMaxLength: it counts UTF-16 units, the rule counts characters
    // (services/api/TextRule.h); the form says when a reason is too long.
    m_reason->setPlaceholderText(tr("Why: a credit note, a goodwill gesture, a correction…"));
    auto *form = new QWidget(this);
    auto *layout = new QFormLayout(form);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addRow(tr("Balance:"),
                   new QLabel(tr("%1 · %2 · %3").arg(row.customerId, row.featureId, row.id), form));
    layout->addRow(tr("Remaining now:"),
                   new QLabel(models::formatAmount(row.remaining, locale()), form));
    layout->addRow(tr("&Amount:"), m_amount);
    layout->addRow(tr("&Reason:"), m_reason);
    auto *note = new QLabel(tr("The change is written to the balance's ledger and, with its "
                               "reason, to the audit log."),
                            form);
    note->setWordWrap(true);
    layout->addRow(note);
    setForm(form);
    saveButton()->setText(tr("A&djust"));
    connect(m_amount, &QLineEdit::textChanged, this, [this] { check(); });
    connect(m_reason, &QLineEdit::textChanged, this, [this] { check(); });
    check();
}

QString AdjustBalanceDialog::changes(QList<models::FieldChange> *changes)
{
    m_request.reset();
    if (m_amount->text().trimmed().isEmpty() && m_reason->text().trimmed().isEmpty())
        return {}; // nothing typed yet: nothing to point at
    auto request = BalanceAdjustEdit::request(m_row, m_amount->text(), m_reason->text(), locale());
    if (!request)
        return models::FieldWords::sentence(request.error());
    m_request = request.value();
    *changes = BalanceAdjustEdit::changes(m_row, *m_request, locale());
    return {};
}

void AdjustBalanceDialog::submit()
{
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
