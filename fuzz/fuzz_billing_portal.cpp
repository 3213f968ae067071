// Bodies of /v1/customers/{id}/billing_portal.
#include "fuzz/RequestFuzzer.h"
#include "services/api/BillingPortal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::BillingPortalRequest>(data, size);
}
