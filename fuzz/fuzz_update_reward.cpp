// Bodies of /v1/rewards.update.
#include "fuzz/RequestFuzzer.h"
#include "services/api/UpdateReward.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::UpdateRewardRequest>(data, size);
}
