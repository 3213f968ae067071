// Bodies of /v1/meterdesk/environments.promote.
#include "fuzz/RequestFuzzer.h"
#include "services/api/Promotion.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::EnvironmentPromotion>(data, size);
}
