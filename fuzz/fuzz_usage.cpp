// Bodies of /v1/meterdesk/balances.track and /v1/meterdesk/balances.check:
// each input as both.
#include "fuzz/RequestFuzzer.h"
#include "services/api/TrackUsage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    md::fuzz::decodeRequest<md::api::TrackRequest>(data, size);
    return md::fuzz::decodeRequest<md::api::CheckRequest>(data, size);
}
