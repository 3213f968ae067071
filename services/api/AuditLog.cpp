#include "services/api/AuditLog.h"

namespace md::api {

using namespace Qt::StringLiterals;

AuditLogRequest AuditLogRequest::read(const JsonReader &reader)
{
    reader.object();
    AuditLogRequest request;
    request.resourceType = reader.field("resource_type"_L1).optString();
    const JsonReader id = reader.field("resource_id"_L1);
    request.resourceId = id.optString();
    if (request.resourceId && !request.resourceType)
        id.fail(u"requires resource_type"_s);
    request.actor = reader.field("actor"_L1).optString();
    request.since = reader.field("since"_L1).optInteger();
    request.limit = reader.field("limit"_L1).optInteger(1, 200).value_or(50);
    request.startCursor = reader.field("start_cursor"_L1).optString().value_or(QString());
    return request;
}

void AuditLogRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("limit"_L1, limit);
    if (resourceType)
        writer.field("resource_type"_L1, *resourceType);
    if (resourceId)
        writer.field("resource_id"_L1, *resourceId);
    if (actor)
        writer.field("actor"_L1, *actor);
    if (since)
        writer.field("since"_L1, *since);
    if (!startCursor.isEmpty())
        writer.field("start_cursor"_L1, startCursor);
    writer.endObject();
}

AuditEntry AuditEntry::read(const JsonReader &reader)
{
    reader.object();
    AuditEntry entry;
    entry.id = reader.field("id"_L1).string();
    entry.at = reader.field("at"_L1).integer();
    const JsonReader actor = reader.field("actor"_L1);
    actor.object();
    entry.actor.kind = actor.field("kind"_L1).string();
    entry.actor.keyId = actor.field("key_id"_L1).nullableString();
    entry.actor.name = actor.field("name"_L1).string();
    entry.action = reader.field("action"_L1).string();
    const JsonReader resource = reader.field("resource"_L1);
    resource.object();
    entry.resourceType = resource.field("type"_L1).string();
    entry.resourceId = resource.field("id"_L1).string();
    const JsonReader before = reader.field("before"_L1);
    const JsonReader after = reader.field("after"_L1);
    if (before.isMissing() || after.isMissing())
        (before.isMissing() ? before : after).fail(u"is required (null when there is none)"_s);
    entry.before = before.raw();
    entry.after = after.raw();
    return entry;
}

void AuditEntry::write(JsonWriter &writer) const
{
    writer.beginObject()
        .field("id"_L1, id)
        .field("at"_L1, at)
        .key("actor"_L1)
        .beginObject()
        .field("kind"_L1, actor.kind)
        .field("key_id"_L1, actor.keyId)
        .field("name"_L1, actor.name)
        .endObject()
        .field("action"_L1, action)
        .key("resource"_L1)
        .beginObject()
        .field("type"_L1, resourceType)
        .field("id"_L1, resourceId)
        .endObject()
        .key("before"_L1);
    before.write(writer);
    writer.key("after"_L1);
    after.write(writer);
    writer.endObject();
}

} // namespace md::api
