// Loads a workspace file's customer's billing history (docs/workspace-
// format.md, "Statements"): its closed statements and the charge lines of
// its open period, checked as they are read, so a dump loaded elsewhere
// keeps what every period was billed and what the open one owes so far.
// The revenue sums of the loaded statements are added up on the way
// (LoadState::revenue) and written once the load is in.
#pragma once

#include "services/engine/sql/Scope.h"
#include "services/engine/workspace/WorkspaceLoadState.h"

namespace md::engine {

class StatementLoader final
{
public:
    explicit StatementLoader(LoadState &state)
        : m_state(state)
    {}

    // `openFrom`: the customer's open period's start when the file gives one.
    api::Result<api::Done> load(const api::JsonReader &customer, const Scope &scope,
                                qint64 customerPk, std::optional<qint64> openFrom);

private:
    api::Result<api::Done> statement(const api::JsonReader &statement, const Scope &scope,
                                     qint64 customerPk, std::optional<qint64> openFrom,
                                     QSet<qint64> &starts);
    api::Result<api::Done> chargeLine(const api::JsonReader &line, const Scope &scope,
                                      qint64 customerPk, QSet<QString> &seen);

    LoadState &m_state;
};

} // namespace md::engine
