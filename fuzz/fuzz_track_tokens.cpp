// Bodies of /v1/balances.track_tokens and /v1/meterdesk/track_tokens.price.
#include "fuzz/RequestFuzzer.h"
#include "services/api/TrackTokens.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::TrackTokensRequest>(data, size);
}
