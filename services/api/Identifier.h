// The one rule for every id the API accepts (customers, products, plans,
// rewards, features, entities, organizations, payment accounts), so the API
// never stores an id that cannot be addressed again, shown safely, or loaded
// back from a workspace dump (docs/api.md, "Identifiers").
#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace md::api {

// Characters, not bytes; far above any real id, far below what costs anything.
inline constexpr qsizetype MaxIdentifierLength = 255;

// What is wrong with `id` (a phrase to follow its field's path), or nullopt
// when it is a good id: not blank, at most MaxIdentifierLength characters,
// no '/', no control or bidirectional-override character, no lone surrogate.
std::optional<QString> identifierProblem(const QString &id);

// An Idempotency-Key, sent as the header or as a usage.batch event's
// `idempotency_key`: 1 to MaxIdempotencyKey visible ASCII characters.
inline constexpr qsizetype MaxIdempotencyKey = 255;
std::optional<QString> idempotencyKeyProblem(QByteArrayView key);

} // namespace md::api
