// Bodies of /v1/platform/organizations/stripe.
#include "fuzz/RequestFuzzer.h"
#include "services/api/LinkOrganization.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::LinkOrganizationRequest>(data, size);
}
