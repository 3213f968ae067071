// processors.verify (docs/processors.md, "Checking against Stripe"): each
// plan in force that an import linked to a Stripe subscription, compared
// with that subscription as Stripe has it now: status, current period,
// quantity and plan; every difference listed, nothing changed on either
// side. A few subscriptions are read one by one; more, by listing the
// account's subscriptions (100 a page) once.
#pragma once

#include "services/api/ProcessorsVerify.h"
#include "services/api/Result.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Scope.h"

#include <QSqlDatabase>

namespace md::engine {

class StripeVerifier final
{
public:
    // Up to this many subscriptions are read one by one.
    static constexpr qsizetype ReadEachUpTo = 25;
    // Periods are Stripe's seconds against Meterdesk's calendar: closer
    // than this they agree.
    static constexpr qint64 PeriodToleranceMs = 60'000;

    static api::Result<api::ProcessorsVerifyResponse>
    verify(const QSqlDatabase &db, const Scope &scope, const api::ProcessorsVerifyRequest &request,
           const StripeClient::Options &options);
};

} // namespace md::engine
