// Bodies of /v1/meterdesk/customers.list and /v1/meterdesk/usage_events.list.
#include "fuzz/RequestFuzzer.h"
#include "services/api/Page.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::PageRequest>(data, size);
}
