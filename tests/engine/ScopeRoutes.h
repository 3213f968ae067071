// Routes run for a scope rather than an authenticated key: ApiOperations with
// a key that holds every scope, for tests and benchmarks that make their
// scopes themselves. What a key may not do is tested through real keys.
#pragma once

#include "services/engine/ApiOperations.h"

namespace md::test {

inline engine::KeyContext everyScope(const engine::Scope &scope)
{
    engine::KeyContext key;
    key.scope = scope;
    key.scopes = {QStringLiteral("*")};
    key.keyName = QStringLiteral("every scope"); // what the audit log names
    return key;
}

inline api::Result<api::ListBalancesResponse> listBalances(engine::Engine &engine,
                                                           const engine::Scope &scope,
                                                           const api::ListBalancesRequest &request)
{
    return engine::ApiOperations(engine).listBalances(everyScope(scope), request);
}

inline api::Result<api::BalancePages> balancePages(engine::Engine &engine,
                                                   const engine::Scope &scope,
                                                   const api::BalancePagesRequest &request,
                                                   const engine::StopCheck &stop = {})
{
    return engine::ApiOperations(engine).balancePages(everyScope(scope), request, stop);
}

inline api::Result<api::BalanceTotals> balanceTotals(engine::Engine &engine,
                                                     const engine::Scope &scope,
                                                     const api::BalanceTotalsRequest &request,
                                                     const engine::StopCheck &stop = {})
{
    return engine::ApiOperations(engine).balanceTotals(everyScope(scope), request, stop);
}

inline api::Result<api::UsageTotals> usageTotals(engine::Engine &engine, const engine::Scope &scope,
                                                 const api::UsageTotalsRequest &request)
{
    return engine::ApiOperations(engine).usageTotals(everyScope(scope), request);
}

inline api::Result<api::ImportCustomerResponse>
importCustomer(engine::Engine &engine, const engine::Scope &scope,
               const api::ImportCustomerRequest &request)
{
    return engine::ApiOperations(engine).importCustomer(everyScope(scope), request);
}

} // namespace md::test
