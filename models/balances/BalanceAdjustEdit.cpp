#include "models/balances/BalanceAdjustEdit.h"

#include "models/balances/ResetOutlook.h"
#include "models/common/AmountFormat.h"
#include "models/common/FieldWords.h"
#include "services/api/TextRule.h"

namespace md::models {

using namespace Qt::StringLiterals;

std::optional<api::Decimal> BalanceAdjustEdit::amountFrom(const QString &text,
                                                          const QLocale &locale)
{
    QString plain = text.trimmed();
    const QString point = locale.decimalPoint();
    if (point != u"."_s) {
        if (plain.contains(point) && plain.contains(u'.'))
            return std::nullopt;
        plain.replace(point, u"."_s);
    }
    plain.replace(locale.negativeSign(), u"-"_s);
    if (plain.startsWith(u'+'))
        plain.remove(0, 1);
    return api::Decimal::parse(plain);
}

api::Result<BalanceAdjustEdit::Typed>
BalanceAdjustEdit::typed(const QString &amountText, const QString &reason, const QLocale &locale)
{
    const auto amount = amountFrom(amountText, locale);
    if (amountText.trimmed().isEmpty())
        return api::ApiError::invalidInputs(
            {}, tr("Amount: enter what to add, or a negative amount to take away."));
    if (!amount)
        return api::ApiError::invalidInputs(
            {},
            tr("Amount: \"%1\" is not an amount; write it like %2, without "
               "thousands separators, at most 9 decimals.")
                .arg(amountText.trimmed(), formatAmount(*api::Decimal::parse("-12.5"), locale)));
    if (amount->isZero())
        return api::ApiError::invalidInputs({}, tr("Amount: 0 would not change the balance."));
    const QString why = reason.trimmed();
    if (why.isEmpty())
        return api::ApiError::invalidInputs(
            {}, tr("Reason: say why the balance is adjusted; it goes to the audit log."));
    // The server's rule for free text, so the form refuses what it would.
    if (const auto problem = api::freeTextProblem(why, api::BalanceAdjustment::MaxReasonLength))
        return api::ApiError::invalidInputs(
            {}, tr("Reason: %1.")
                    .arg(FieldWords::problem(api::ApiError::invalidInputs(u"reason"_s, *problem))));
    return Typed{*amount, why};
}

api::Result<api::BalanceAdjustment> BalanceAdjustEdit::request(const api::BalanceRow &row,
                                                               const QString &amountText,
                                                               const QString &reason,
                                                               const QLocale &locale)
{
    if (row.unlimited)
        return api::ApiError::invalidInputs(
            {}, tr("This balance is unlimited: it has no amount to adjust."));
    auto given = typed(amountText, reason, locale);
    if (!given)
        return given.error();
    if (!row.remaining.plus(given.value().amount))
        return api::ApiError::invalidInputs({}, tr("Amount: too large."));
    return api::BalanceAdjustment{row.id, given.value().amount, given.value().reason};
}

api::Result<api::BalanceCreation> BalanceAdjustEdit::creation(const api::BalanceRow &row,
                                                              const QString &amountText,
                                                              const QString &reason,
                                                              const QLocale &locale)
{
    auto given = typed(amountText, reason, locale);
    if (!given)
        return given.error();
    if (given.value().amount.isNegative())
        return api::ApiError::invalidInputs(
            {}, tr("Amount: a new balance holds what it is given; enter more than 0."));
    return api::BalanceCreation{row.customerId,       row.featureId, row.entityId,
                                given.value().amount, std::nullopt,  given.value().reason};
}

backend::Reply<api::LedgerEntry> BalanceAdjustEdit::create(backend::BillingBackend *backend,
                                                           const api::BalanceCreation &request)
{
    return backend->createBalance(request);
}

QList<FieldChange> BalanceAdjustEdit::creationChanges(const api::BalanceCreation &request,
                                                      const QLocale &locale)
{
    const QString owner = request.entityId
                              ? tr("%1, entity %2").arg(request.customerId, *request.entityId)
                              : request.customerId;
    return {{tr("Balance"), QString(),
             tr("new: %1 of %2, does not reset").arg(request.featureId, owner)},
            {tr("Remaining"), QString(), formatAmount(request.amount, locale)},
            {tr("Reason"), QString(), request.reason}};
}

QString BalanceAdjustEdit::lastingNew(const api::BalanceCreation &request, const QLocale &locale)
{
    return tr("A new balance of %1 that does not reset: the credit of %2 lasts until it is "
              "used.")
        .arg(request.featureId, formatAmount(request.amount, locale));
}

backend::Reply<api::LedgerEntry> BalanceAdjustEdit::submit(backend::BillingBackend *backend,
                                                           const api::BalanceAdjustment &request)
{
    return backend->adjustBalance(request);
}

QList<FieldChange> BalanceAdjustEdit::changes(const api::BalanceRow &row,
                                              const api::BalanceAdjustment &request,
                                              const QLocale &locale)
{
    const api::Decimal after = row.remaining.plus(request.amount).value_or(row.remaining);
    return {
        {tr("Remaining"), formatAmount(row.remaining, locale), formatAmount(after, locale)},
        {tr("Adjustment"), QString(),
         (request.amount.isNegative() ? QString() : u"+"_s) + formatAmount(request.amount, locale)},
        {tr("Reason"), QString(), request.reason}};
}

bool BalanceAdjustEdit::resets(const api::BalanceRow &row)
{
    return row.reset && row.reset->resetsAt && row.reset->interval != api::ResetInterval::OneOff;
}

QString BalanceAdjustEdit::lasting(const api::BalanceRow &row, const api::Decimal &amount,
                                   const QLocale &locale)
{
    const bool credit = !amount.isNegative();
    if (!resets(row)) {
        if (!credit)
            return {};
        return row.expiresAt
                   ? tr("Balance %1 does not reset; the credit lasts until it is used or the "
                        "balance expires on %2.")
                         .arg(row.id, formatTimestamp(*row.expiresAt, locale))
                   : tr("Balance %1 does not reset; the credit lasts until it is used.")
                         .arg(row.id);
    }
    const QString on = formatTimestamp(*row.reset->resetsAt, locale);
    const QString grant = formatAmount(row.includedGrant.runningSum(row.prepaidGrant), locale);
    if (!credit)
        return tr("This balance resets on %1; the deduction lasts until then: the reset puts "
                  "the remaining back to %2.")
            .arg(on, grant);
    if (const auto &rule = row.reset->rollover)
        return tr("This balance resets on %1; the credit lasts until then. What is left of it "
                  "then rolls over with the rest unused (%2) for %3, and then expires.")
            .arg(on,
                 rule->max ? tr("at most %1 held").arg(formatAmount(*rule->max, locale))
                           : tr("no maximum"),
                 ResetOutlook::lengthName(rule->length, rule->duration));
    return tr("This balance resets on %1; the credit lasts until then: the reset puts the "
              "remaining back to %2.")
        .arg(on, grant);
}

backend::Reply<QList<api::BalanceRow>>
BalanceAdjustEdit::lastingBalances(backend::BillingBackend *backend, const api::BalanceRow &row)
{
    api::ListBalancesRequest request;
    request.customerId = row.customerId;
    request.entityId = row.entityId;
    request.featureId = row.featureId;
    request.planId.emplace(); // plan_id null: standalone, from no plan
    request.limit = api::ListBalancesRequest::MaxLimit;
    return backend->listBalances(request).then(
        [id = row.id, entityId = row.entityId](const api::Result<api::ListBalancesResponse> &page)
            -> api::Result<QList<api::BalanceRow>> {
            if (!page)
                return page.error();
            QList<api::BalanceRow> lasting;
            // Without entity_id the customer's entities' rows come too.
            for (const api::BalanceRow &candidate : page.value().list)
                if (candidate.id != id && candidate.entityId == entityId && !candidate.unlimited &&
                    !resets(candidate))
                    lasting.append(candidate);
            return lasting;
        });
}

} // namespace md::models
