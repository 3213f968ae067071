#include "services/engine/workspace/WorkspaceLoadState.h"

#include <QDateTime>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::JsonReader;

LoadState::LoadState(const QSqlDatabase &database, Dialect dialect)
    : db(database)
    , keys(database, dialect)
    , batches(database)
    , now(QDateTime::currentMSecsSinceEpoch())
{}

QVariant orNull(const std::optional<QString> &value)
{
    return value ? QVariant(*value) : QVariant();
}

QVariant orNull(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

QString nonEmptyId(const JsonReader &reader)
{
    const QString id = reader.string();
    if (reader.ok() && id.trimmed().isEmpty())
        reader.fail(u"must not be empty"_s);
    return id;
}

} // namespace md::engine
