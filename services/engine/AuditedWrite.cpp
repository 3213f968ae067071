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

} // namespace md::engine
