#include "services/engine/AuditedWrite.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::AuditActor AuditedWrite::actorOf(const KeyContext &key)
{
    if (key.scope.keyPk == 0)
        return AuditTrail::consoleUser();
    // The key's id is made by AuditTrail::record(), which has the connection
    // that a public id needs (PublicIds) and the key's row (scope.keyPk).
    return {u"key"_s, std::nullopt, key.keyName};
}

std::optional<QString> AuditedWrite::eventTypeOf(const QString &action)
{
    static const QHash<QString, QString> types{
        {u"customer.import"_s, u"customer.imported"_s},
        {u"product.update"_s, u"product.updated"_s},
        {u"reward.update"_s, u"reward.updated"_s},
        {u"balance.adjust"_s, u"balance.adjusted"_s},
        {u"balance.create"_s, u"balance.created"_s},
    };
    const auto it = types.constFind(action);
    return it == types.cend() ? std::nullopt : std::optional(it.value());
}

api::JsonValue AuditedWrite::eventDataOf(const AuditTrail::Change &change)
{
    using api::JsonValue;
    return JsonValue::object(
        {{"resource"_L1, JsonValue::object({{"type"_L1, JsonValue::string(change.resourceType)},
                                            {"id"_L1, JsonValue::string(change.resourceId)}})},
         {"before"_L1, change.before},
         {"after"_L1, change.after}});
}

} // namespace md::engine
