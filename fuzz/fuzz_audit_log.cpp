// Bodies of /v1/meterdesk/audit_log.list.
#include "fuzz/RequestFuzzer.h"
#include "services/api/AuditLog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeRequest<md::api::AuditLogRequest>(data, size);
}
