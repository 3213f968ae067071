#include "services/api/ErrorCode.h"

#include <array>
#include <utility>

namespace md::api {

using namespace Qt::StringLiterals;

namespace {

constexpr std::array Words{
    std::pair{ErrorCode::InvalidInputs, "invalid_inputs"_L1},
    std::pair{ErrorCode::InvalidRequest, "invalid_request"_L1},
    std::pair{ErrorCode::InvalidCursor, "invalid_cursor"_L1},
    std::pair{ErrorCode::InvalidApiVersion, "invalid_api_version"_L1},
    std::pair{ErrorCode::BadRequest, "bad_request"_L1},
    std::pair{ErrorCode::Unauthorized, "unauthorized"_L1},
    std::pair{ErrorCode::InsufficientScopes, "insufficient_scopes"_L1},
    std::pair{ErrorCode::LiveKeyRequired, "live_key_required"_L1},
    std::pair{ErrorCode::SandboxOnly, "sandbox_only"_L1},
    std::pair{ErrorCode::Forbidden, "forbidden"_L1},
    std::pair{ErrorCode::CustomerNotFound, "customer_not_found"_L1},
    std::pair{ErrorCode::FeatureNotFound, "feature_not_found"_L1},
    std::pair{ErrorCode::ProductNotFound, "product_not_found"_L1},
    std::pair{ErrorCode::RewardNotFound, "reward_not_found"_L1},
    std::pair{ErrorCode::EntityNotFound, "entity_not_found"_L1},
    std::pair{ErrorCode::BalanceNotFound, "balance_not_found"_L1},
    std::pair{ErrorCode::ApiKeyNotFound, "api_key_not_found"_L1},
    std::pair{ErrorCode::WebhookEndpointNotFound, "webhook_endpoint_not_found"_L1},
    std::pair{ErrorCode::WebhookDeliveryNotFound, "webhook_delivery_not_found"_L1},
    std::pair{ErrorCode::StatementNotFound, "statement_not_found"_L1},
    std::pair{ErrorCode::NotFound, "not_found"_L1},
    std::pair{ErrorCode::MethodNotAllowed, "method_not_allowed"_L1},
    std::pair{ErrorCode::RequestTimeout, "request_timeout"_L1},
    std::pair{ErrorCode::DuplicateIdempotencyKey, "duplicate_idempotency_key"_L1},
    std::pair{ErrorCode::DuplicatePromoCode, "duplicate_promo_code"_L1},
    std::pair{ErrorCode::AccountAlreadyLinked, "account_already_linked"_L1},
    std::pair{ErrorCode::BalanceExpired, "balance_expired"_L1},
    std::pair{ErrorCode::ApiKeyRevoked, "api_key_revoked"_L1},
    std::pair{ErrorCode::ApiKeyExpired, "api_key_expired"_L1},
    std::pair{ErrorCode::OutlivesCaller, "outlives_caller"_L1},
    std::pair{ErrorCode::ProductionChanged, "production_changed"_L1},
    std::pair{ErrorCode::Expired, "expired"_L1},
    std::pair{ErrorCode::PayloadTooLarge, "payload_too_large"_L1},
    std::pair{ErrorCode::HeaderTooLarge, "header_too_large"_L1},
    std::pair{ErrorCode::UsageLimitReached, "usage_limit_reached"_L1},
    std::pair{ErrorCode::SpendLimitReached, "spend_limit_reached"_L1},
    std::pair{ErrorCode::InternalError, "internal_error"_L1},
    std::pair{ErrorCode::NotImplemented, "not_implemented"_L1},
    std::pair{ErrorCode::DatabaseUnavailable, "database_unavailable"_L1},
    std::pair{ErrorCode::ProcessorRefused, "processor_refused"_L1},
    std::pair{ErrorCode::ProcessorUnavailable, "processor_unavailable"_L1},
    std::pair{ErrorCode::ShuttingDown, "shutting_down"_L1},
    std::pair{ErrorCode::QueueFull, "queue_full"_L1},
    std::pair{ErrorCode::TooManyConnections, "too_many_connections"_L1},
    std::pair{ErrorCode::HttpVersionNotSupported, "http_version_not_supported"_L1},
};

// Each code at its own place, and none left out.
constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < Words.size(); ++i)
        if (std::size_t(Words[i].first) != i)
            return false;
    return std::size_t(ErrorCode::HttpVersionNotSupported) + 1 == Words.size();
}
static_assert(inEnumOrder(), "Words must name every ErrorCode, in the enum's order");

} // namespace

QLatin1StringView wordOf(ErrorCode code)
{
    return Words[std::size_t(code)].second;
}

QStringList serverErrorCodes()
{
    QStringList words;
    for (const auto &[code, word] : Words)
        words.append(word);
    return words;
}

} // namespace md::api
