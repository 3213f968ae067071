// A workspace dump's billing history (docs/workspace-format.md,
// "Statements"): each customer's closed statements and the charge lines
// written so far, as StatementLoader reads them back.
#pragma once

#include "services/api/JsonValue.h"
#include "services/api/Result.h"

#include <QHash>
#include <QSqlDatabase>

namespace md::engine {

class StatementDumper final
{
public:
    // By customer key: its statements, oldest first, and its charge lines
    // in the order statements list them.
    static api::Result<api::Done> dump(const QSqlDatabase &db, qint64 orgPk, const QString &env,
                                       QHash<qint64, api::JsonValue> &statements,
                                       QHash<qint64, api::JsonValue> &chargeLines);
};

} // namespace md::engine
