#include "views/balances/BalanceDetailPane.h"

#include "models/balances/BalanceListModel.h"
#include "models/balances/ResetOutlook.h"
#include "models/common/AmountFormat.h"
#include "models/common/WhenDone.h"
#include "models/customers/BillingControlsEdit.h"
#include "views/balances/BalanceLedgerTab.h"

#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedLayout>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;
using models::BalanceListModel;
using models::formatAmount;
using models::formatTimestamp;

namespace {

QString row(const QString &label, const QString &value)
{
    return u"<tr><td style=\"padding-right:16px\">%1</td><td>%2</td></tr>"_s.arg(
        label.toHtmlEscaped(), value);
}

} // namespace

BalanceDetailPane::BalanceDetailPane(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_controls(backend)
    , m_charges(backend)
    , m_text(new QTextBrowser(this))
    , m_json(new QPlainTextEdit(this))
    , m_showJson(new QPushButton(tr("Show &JSON"), this))
    , m_sides(new QStackedLayout)
    , m_tabs(new QTabWidget(this))
    , m_ledger(new BalanceLedgerTab(backend, m_tabs))
{
    connect(m_ledger, &BalanceLedgerTab::adjusted, this, &BalanceDetailPane::adjusted);
    connect(m_ledger, &BalanceLedgerTab::created, this, &BalanceDetailPane::created);
    m_text->setObjectName(u"balanceDetail"_s);
    m_json->setObjectName(u"balanceJson"_s);
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_showJson->setObjectName(u"showBalanceJson"_s);
    m_showJson->setCheckable(true);
    m_showJson->setToolTip(tr("The balance as the API sends it (Alt+J)"));
    m_sides->addWidget(m_text);
    m_sides->addWidget(m_json);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_showJson);
    auto *summary = new QWidget(m_tabs);
    auto *summaryLayout = new QVBoxLayout(summary);
    summaryLayout->setContentsMargins(0, 0, 0, 0);
    summaryLayout->addLayout(m_sides, 1);
    summaryLayout->addLayout(buttons);
    m_tabs->setObjectName(u"balanceDetailTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(summary, tr("Su&mmary"));
    m_tabs->addTab(m_ledger, tr("&Ledger"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    connect(m_showJson, &QPushButton::toggled, this, [this](bool json) {
        m_sides->setCurrentIndex(json ? 1 : 0);
        m_showJson->setText(json ? tr("Show &details") : tr("Show &JSON"));
    });
    showNone(0);
}

QString BalanceDetailPane::text() const
{
    return m_text->toPlainText();
}

void BalanceDetailPane::showBalance(const std::optional<api::BalanceRow> &balance)
{
    const bool sameOwner = m_row && balance && m_row->customerId == balance->customerId &&
                           m_row->entityId == balance->entityId;
    m_row = balance;
    m_ledger->showBalance(balance);
    m_charge.reset();
    m_chargeAnswered = false;
    m_chargeProblem.clear();
    const quint64 asked = ++m_chargeGeneration;
    if (balance && models::ChargeSource::charged(*balance))
        models::whenDone(
            m_charges.preview(*balance), this,
            [this, asked, id = balance->id](const api::Result<api::ChargesPreview> &answer) {
                if (asked != m_chargeGeneration)
                    return; // another balance was selected meanwhile
                m_chargeAnswered = true;
                if (answer)
                    m_charge = models::ChargeSource::lineOf(answer.value(), id);
                else
                    m_chargeProblem = answer.error().message;
                render();
            });
    if (!balance || !sameOwner) {
        m_controlLines.reset();
        m_controlsProblem.clear();
        const quint64 generation = ++m_generation;
        if (balance)
            m_controls.read({balance->customerId, balance->entityId})
                .then(this, [this,
                             generation](const api::Result<api::BillingControlsAnswer> &answer) {
                    if (generation != m_generation)
                        return; // another balance was selected meanwhile
                    if (answer)
                        m_controlLines =
                            models::BillingControlsEdit::describe(answer.value().billingControls);
                    else
                        m_controlsProblem = answer.error().message;
                    render();
                });
    }
    render();
}

void BalanceDetailPane::showNone(int selected)
{
    m_text->setPlaceholderText(
        selected > 1
            ? tr("%Ln balances are selected. Select one to see it here and to adjust it.", nullptr,
                 selected)
            : tr("Select a balance to see its plan, grants, price, reset, rollovers and billing "
                 "controls."));
    showBalance(std::nullopt);
}

QString BalanceDetailPane::chargeText(const QLocale &locale) const
{
    if (!m_chargeProblem.isEmpty())
        return tr("not known: %1").arg(m_chargeProblem).toHtmlEscaped();
    if (!m_chargeAnswered)
        return tr("asking…");
    if (!m_charge) // its state changed since the table read it
        return tr("not among this period's charges");
    if (m_charge->quantity.isZero())
        return tr("within the grant: nothing owed");
    return tr("%1 past the grant, billed as %2: <b>%3</b>")
        .arg(formatAmount(m_charge->quantity, locale, 0),
             formatAmount(m_charge->billableUnits.value_or(m_charge->quantity), locale, 0),
             formatAmount(m_charge->amount, locale, 2));
}

void BalanceDetailPane::render()
{
    if (!m_row) {
        m_text->clear();
        m_json->clear();
        return;
    }
    const api::BalanceRow &b = *m_row;
    const QLocale locale;
    const QString owner =
        b.entityId ? tr("%1, entity %2").arg(b.customerId, *b.entityId) : b.customerId;
    QString html = u"<h3>%1</h3><p>%2</p><table>"_s.arg(
        tr("%1 for %2").arg(b.featureId, owner).toHtmlEscaped(),
        tr("Balance %1 · %2")
            .arg(b.id, b.status == api::BalanceStatus::Active ? tr("active") : tr("expired"))
            .toHtmlEscaped());
    html += row(tr("Plan"), b.planId ? b.planId->toHtmlEscaped() : tr("none (standalone)"));
    if (b.unlimited)
        html += row(tr("Grant"), tr("unlimited"));
    html += row(tr("Included grant"), formatAmount(b.includedGrant, locale));
    html += row(tr("Prepaid grant"), formatAmount(b.prepaidGrant, locale));
    html += row(tr("Remaining"), u"<b>%1</b>"_s.arg(formatAmount(b.remaining, locale)));
    html += row(tr("Used this period"), formatAmount(b.usage, locale));
    if (b.price) {
        const api::Price &p = *b.price;
        const QString per = p.billingUnits == api::Decimal::fromInteger(1)
                                ? tr("per unit")
                                : tr("per %1 units").arg(formatAmount(p.billingUnits, locale, 0));
        const QString method =
            p.billingMethod == api::BillingMethod::Prepaid ? tr("prepaid") : tr("usage-based");
        QString price = p.amount ? tr("%1 %2, %3").arg(formatAmount(*p.amount, locale), per, method)
                                 : tr("tiered %1, %2").arg(per, method);
        for (const api::Tier &tier : p.tiers.value_or(QList<api::Tier>()))
            price += u"<br>"_s +
                     tr("up to %1: %2%3")
                         .arg(tier.to ? formatAmount(*tier.to, locale, 0) : tr("∞"),
                              formatAmount(tier.amount, locale),
                              tier.flatAmount
                                  ? tr(" + %1 flat").arg(formatAmount(*tier.flatAmount, locale))
                                  : QString());
        if (p.maxPurchase)
            price +=
                u"<br>"_s + tr("at most %1 purchased").arg(formatAmount(*p.maxPurchase, locale));
        html += row(tr("Price"), price);
        if (models::ChargeSource::charged(b))
            html += row(tr("This period so far"), chargeText(locale));
    } else {
        html += row(tr("Price"), tr("none"));
    }
    if (b.status == api::BalanceStatus::Expired) {
        // Nothing falls due on an expired balance any more (docs/api.md,
        // "The billing clock"): its stored reset is history, not a promise.
        html += row(tr("Resets"), tr("no longer: the balance has expired"));
    } else if (b.reset) {
        html += row(tr("Resets"), b.reset->resetsAt
                                      ? tr("%1, next %2")
                                            .arg(BalanceListModel::intervalName(b.reset->interval),
                                                 formatTimestamp(*b.reset->resetsAt, locale))
                                      : BalanceListModel::intervalName(b.reset->interval));
        // What the next reset does (docs/api.md, "The billing clock").
        if (const QString then = models::ResetOutlook::atTheReset(b, locale); !then.isEmpty())
            html += row(tr("At the reset"), then);
        if (const QString carried = models::ResetOutlook::rollsOver(b, locale); !carried.isEmpty())
            html += row(tr("Rolls over"), carried);
    } else
        html += row(tr("Resets"), tr("never"));
    html += row(tr("Expires"), b.expiresAt ? formatTimestamp(*b.expiresAt, locale) : tr("never"));
    html += row(tr("Created"), formatTimestamp(b.createdAt, locale));
    html += u"</table>"_s;

    if (!b.rollovers.isEmpty()) {
        html += u"<p><b>%1</b></p><table>"_s.arg(tr("Rollovers"));
        for (const api::Rollover &rollover : b.rollovers)
            html += row(tr("%1 of %2 left")
                            .arg(formatAmount(rollover.balance, locale),
                                 formatAmount(rollover.granted, locale)),
                        tr("expires %1").arg(formatTimestamp(rollover.expiresAt, locale)));
        html += u"</table>"_s;
    }

    html += u"<p><b>%1</b></p>"_s.arg((b.entityId ? tr("Billing controls of this entity")
                                                  : tr("Billing controls of this customer"))
                                          .toHtmlEscaped());
    if (!m_controlsProblem.isEmpty())
        html += u"<p>%1</p>"_s.arg(
            tr("They could not be read: %1").arg(m_controlsProblem).toHtmlEscaped());
    else if (!m_controlLines)
        html += u"<p>%1</p>"_s.arg(tr("Asking…"));
    else if (m_controlLines->isEmpty())
        html += u"<p>%1</p>"_s.arg(tr("None: no limits, alerts or automatic top-ups."));
    else {
        html += u"<ul>"_s;
        for (const QString &line : std::as_const(*m_controlLines))
            html += u"<li>%1</li>"_s.arg(line.toHtmlEscaped());
        html += u"</ul>"_s;
    }
    m_text->setHtml(html);
    m_json->setPlainText(BalanceListModel::rawText(b));
}

} // namespace md::views
