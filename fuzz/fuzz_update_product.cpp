// Bodies of /v1/products/{id}.
#include "fuzz/RequestFuzzer.h"
#include "services/api/UpdateProduct.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::UpdateProductRequest>(data, size);
}
