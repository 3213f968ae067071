#include "models/operator/AuditLogModel.h"

#include "models/common/AmountFormat.h"

#include <QDateTime>
#include <QSet>

namespace md::models {

using namespace Qt::StringLiterals;

AuditLogModel::AuditLogModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void AuditLogModel::setFilter(const api::AuditLogRequest &filter)
{
    m_filter = api::AuditLogRequest();
    m_filter.resourceType = filter.resourceType;
    m_filter.resourceId = filter.resourceType ? filter.resourceId : std::nullopt;
    m_filter.actor = filter.actor;
    m_filter.since = filter.since;
    restart();
}

int AuditLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void AuditLogModel::sendRequest(const QString &cursor, quint64 generation)
{
    api::AuditLogRequest request = m_filter;
    request.limit = 200;
    request.startCursor = cursor;
    m_backend->listAuditLog(request).then(
        this, [this, generation](const api::Result<api::Page<api::AuditEntry>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] {
                            m_rows.append(page.value().list);
                            for (const api::AuditEntry &entry : page.value().list)
                                m_changed.append(changedFields(entry).join(u", "_s));
                        });
        });
}

void AuditLogModel::refreshIfStale()
{
    if (isLoading())
        return; // what is on its way is read now
    api::AuditLogRequest newest = m_filter;
    newest.limit = 1;
    m_backend->listAuditLog(newest).then(
        this, [this, asked = m_filter](const api::Result<api::Page<api::AuditEntry>> &page) {
            // A failed look changes nothing; a new filter or a load since reads afresh.
            if (!page || isLoading() || asked != m_filter)
                return;
            const QList<api::AuditEntry> &list = page.value().list;
            const QString newestId = list.isEmpty() ? QString() : list.first().id;
            if (lastError() || newestId != (m_rows.isEmpty() ? QString() : m_rows.first().id))
                restart();
        });
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ActorColumn:
        return tr("Who");
    case ActionColumn:
        return tr("Action");
    case ResourceColumn:
        return tr("Resource");
    case ChangedColumn:
        return tr("Changed");
    default:
        return {};
    }
}

QString AuditLogModel::actorText(const api::AuditActor &actor)
{
    if (actor.kind == "console"_L1)
        return tr("%1 (console)").arg(actor.name);
    const QString id = actor.keyId.value_or(QString());
    return actor.name.isEmpty() ? tr("key %1").arg(id) : tr("key %1 (%2)").arg(id, actor.name);
}

QVariant AuditLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::AuditEntry &entry = m_rows.at(index.row());
    if (role == Qt::ToolTipRole && index.column() == TimeColumn)
        return formatTimestamp(entry.at);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return formatShortTimestamp(entry.at);
    case ActorColumn:
        return actorText(entry.actor);
    case ActionColumn:
        return entry.action;
    case ResourceColumn:
        return u"%1 %2"_s.arg(entry.resourceType, entry.resourceId);
    case ChangedColumn:
        return m_changed.at(index.row());
    default:
        return {};
    }
}

namespace {

// A reward is {"coupon": {...}} or {"feature_grant": {...}}: when both sides
// are such a wrapper of the same kind, its fields are what changed.
std::pair<const api::JsonValue *, const api::JsonValue *> unwrapped(const api::JsonValue &before,
                                                                    const api::JsonValue &after)
{
    const auto wrapper = [](const api::JsonValue &side) {
        return side.isObject() && side.size() == 1 && side.at(0).isObject();
    };
    if (wrapper(before) && wrapper(after) && before.keyAt(0) == after.keyAt(0))
        return {&before.at(0), &after.at(0)};
    if (wrapper(before) && after.isNull())
        return {&before.at(0), &after};
    if (before.isNull() && wrapper(after))
        return {&before, &after.at(0)};
    return {&before, &after};
}

} // namespace

int AuditLogModel::fieldDepth(const api::AuditEntry &entry)
{
    const auto [before, after] = unwrapped(entry.before, entry.after);
    return before == &entry.before && after == &entry.after ? 1 : 2;
}

QStringList AuditLogModel::changedFields(const api::AuditEntry &entry)
{
    const auto [before, after] = unwrapped(entry.before, entry.after);
    QStringList changed;
    QSet<QString> seen;
    for (const api::JsonValue *side : {before, after}) {
        const api::JsonValue &other = side == before ? *after : *before;
        if (!side->isObject())
            continue;
        for (qsizetype i = 0; i < side->size(); ++i) {
            const QString key = side->keyAt(i);
            if (seen.contains(key))
                continue;
            seen.insert(key);
            const QByteArray name = key.toUtf8();
            const QLatin1StringView field(name.constData(), name.size());
            if (!other.isObject() || !(side->value(field) == other.value(field)))
                changed.append(key);
        }
    }
    return changed;
}

QString AuditLogModel::sideText(const api::JsonValue &side)
{
    return side.isNull() ? tr("(none)") : QString::fromUtf8(side.toJson(true));
}

ExportColumns AuditLogModel::columns()
{
    return {{u"id"_s, tr("Entry")},
            {u"at"_s, tr("Time")},
            {u"actor_kind"_s, tr("Who")},
            {u"actor_key_id"_s, tr("Key")},
            {u"actor_name"_s, tr("Name")},
            {u"action"_s, tr("Action")},
            {u"resource_type"_s, tr("Resource")},
            {u"resource_id"_s, tr("Resource id")},
            {u"changed"_s, tr("Changed")},
            {u"before"_s, tr("Before")},
            {u"after"_s, tr("After")}};
}

ExportRow AuditLogModel::cells(const api::AuditEntry &entry)
{
    const auto json = [](const api::JsonValue &side) -> ExportCell {
        return side.isNull() ? ExportCell() : ExportCell(QString::fromUtf8(side.toJson()));
    };
    return {entry.id,
            ExportTime{entry.at},
            entry.actor.kind,
            entry.actor.keyId ? ExportCell(*entry.actor.keyId) : ExportCell(),
            entry.actor.name,
            entry.action,
            entry.resourceType,
            entry.resourceId,
            changedFields(entry).join(u' '),
            json(entry.before),
            json(entry.after)};
}

} // namespace md::models
