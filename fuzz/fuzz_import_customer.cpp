// Bodies of /v1/billing.import.
#include "fuzz/RequestFuzzer.h"
#include "services/api/ImportCustomer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::ImportCustomerRequest>(data, size);
}
