// Bodies of /v1/meterdesk/balances.totals.
#include "fuzz/RequestFuzzer.h"
#include "services/api/BalanceTotals.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::BalanceTotalsRequest>(data, size);
}
