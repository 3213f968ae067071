// Bodies of /v1/meterdesk/balances.adjust.
#include "fuzz/RequestFuzzer.h"
#include "services/api/BalanceAdjustment.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::BalanceAdjustment>(data, size);
}
