// balances.pages (docs/api.md, "balances.pages"): how many rows a
// balances.list filter holds and the cursor that starts each of its pages,
// so that a client can show any part of a long listing at once (the
// console's Balances table, docs/performance.md "Windowed table").
#pragma once

#include "services/api/ListBalances.h"

#include <QStringList>

namespace md::api {

struct BalancePagesRequest
{
    // The balances.list filter; its limit and start_cursor are not read or written.
    ListBalancesRequest filter;
    qint64 pageSize = ListBalancesRequest::MaxLimit;

    static BalancePagesRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalancePagesRequest &, const BalancePagesRequest &) = default;
};

struct BalancePages
{
    qint64 count = 0;
    // cursors[k] is the start_cursor of page k (rows k × page_size on); the
    // first is "", and there is one per page.
    QStringList cursors;

    static BalancePages read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const BalancePages &, const BalancePages &) = default;
};

} // namespace md::api
