// Every error code the server sends, in one list (docs/api.md, "Errors");
// docs/openapi.yaml's Error.code lists the same words (tst_openapi compares
// the two). An ApiError the engine or the server makes takes this enum, so
// no code goes on the wire that the list, and with it the contract, lacks.
// The console's own failures (status 0) have their own words.
#pragma once

#include <QLatin1StringView>
#include <QStringList>

namespace md::api {

enum class ErrorCode {
    InvalidInputs,
    InvalidRequest,
    InvalidCursor,
    InvalidApiVersion,
    BadRequest,
    Unauthorized,
    InsufficientScopes,
    LiveKeyRequired,
    SandboxOnly,
    Forbidden,
    CustomerNotFound,
    FeatureNotFound,
    ProductNotFound,
    RewardNotFound,
    EntityNotFound,
    BalanceNotFound,
    ApiKeyNotFound,
    WebhookEndpointNotFound,
    WebhookDeliveryNotFound,
    StatementNotFound,
    NotFound,
    MethodNotAllowed,
    RequestTimeout,
    DuplicateIdempotencyKey,
    DuplicatePromoCode,
    AccountAlreadyLinked,
    BalanceExpired,
    ApiKeyRevoked,
    ApiKeyExpired,
    OutlivesCaller,
    ProductionChanged,
    Expired,
    PayloadTooLarge,
    HeaderTooLarge,
    UsageLimitReached,
    SpendLimitReached,
    InternalError,
    NotImplemented,
    DatabaseUnavailable,
    ProcessorRefused,
    ProcessorUnavailable,
    ShuttingDown,
    QueueFull,
    TooManyConnections,
    HttpVersionNotSupported,
};

// The code's word on the wire, such as "customer_not_found".
QLatin1StringView wordOf(ErrorCode code);

// Every word, in the enum's order.
QStringList serverErrorCodes();

} // namespace md::api
