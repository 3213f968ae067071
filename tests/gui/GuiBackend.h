// The backend a GUI test drives, chosen by MD_GUI_BACKEND: EngineBackend on
// the database, or RemoteBackend to a meterdesk-server started on it.
#pragma once

#include "services/backend/BillingBackend.h"
#include "tests/conformance/ServerProcess.h"

#include <memory>

namespace md::test {

// Null with `problem` set when the backend could not be made ready.
std::unique_ptr<backend::BillingBackend> openGuiBackend(const QString &location, const QString &key,
                                                        ServerProcess &server, QString *problem);

} // namespace md::test
