// Bodies of /v1/balances.list.
#include "fuzz/RequestFuzzer.h"
#include "services/api/ListBalances.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::ListBalancesRequest>(data, size);
}
