// Bodies of /v1/meterdesk/ledger.list.
#include "fuzz/RequestFuzzer.h"
#include "services/api/Ledger.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::LedgerRequest>(data, size);
}
