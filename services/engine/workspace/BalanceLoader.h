// Loads one balance of a workspace file's customer (docs/workspace-format.md)
// for CustomerLoader: its grants, reset, billing-clock fields and rollovers,
// checked as they are read, and its opening ledger entries.
#pragma once

#include "services/api/Decimal.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/workspace/WorkspaceLoadState.h"

#include <QHash>

namespace md::api {
struct Rollover;
}

namespace md::engine {

class BalanceLoader final
{
public:
    explicit BalanceLoader(LoadState &state)
        : m_state(state)
    {}

    // `entities` and `customerProducts`: the customer's, by id.
    api::Result<api::Done> load(const api::JsonReader &balance, const Scope &scope,
                                qint64 customerPk, const QHash<QString, qint64> &entities,
                                const QHash<QString, qint64> &customerProducts);

private:
    // A loaded balance's ledger: what it holds as it arrives, then its
    // expiry when its plan arrives expired or the clock had expired it
    // (docs/ledger.md).
    api::Result<api::Done> opening(const Scope &scope, qint64 customerPk, const QString &featureId,
                                   const QString &balanceId, api::Decimal remaining,
                                   api::Decimal usage, const QList<api::Rollover> &rollovers,
                                   bool expired);

    LoadState &m_state;
};

} // namespace md::engine
