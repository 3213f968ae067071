// Bodies of the webhook routes: /v1/meterdesk/webhook_endpoints.create,
// .update, the { id } of .delete, .rotate_secret, .send_test and
// webhook_deliveries.redeliver, and webhook_deliveries.list. Each input is
// read as all four, as a client may send any body to any of them.
#include "fuzz/RequestFuzzer.h"
#include "services/api/Webhook.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    md::fuzz::decodeRequest<md::api::WebhookEndpointCreate>(data, size);
    md::fuzz::decodeRequest<md::api::WebhookEndpointUpdate>(data, size);
    md::fuzz::decodeRequest<md::api::WebhookTarget>(data, size);
    return md::fuzz::decodeRequest<md::api::WebhookDeliveriesRequest>(data, size);
}
