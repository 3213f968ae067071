// Bodies of /v1/meterdesk/balances.pages.
#include "fuzz/RequestFuzzer.h"
#include "services/api/BalancePages.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::BalancePagesRequest>(data, size);
}
