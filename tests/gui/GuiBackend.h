// The backend a GUI test drives, chosen by MD_GUI_BACKEND: EngineBackend on
// the database, or RemoteBackend to a meterdesk-server started on it; and
// the demo workspace the page tests read.
#pragma once

#include "services/backend/BillingBackend.h"
#include "tests/support/ServerProcess.h"

#include <QJsonObject>

#include <memory>

namespace md::test {

// Null with `problem` set when the backend could not be made ready.
std::unique_ptr<backend::BillingBackend> openGuiBackend(const QString &location, const QString &key,
                                                        ServerProcess &server, QString *problem);

// The workspace file `file` loaded into the empty database at `location`,
// then a backend on it for `key` (openGuiBackend): the admin page tests' start.
std::unique_ptr<backend::BillingBackend> openLoadedBackend(const QString &location,
                                                           const QString &file, const QString &key,
                                                           ServerProcess &server, QString *problem);

// The demo workspace of `customers` customers, its test key `key`, loaded
// into the empty database at `location`; its JSON, for what a test counts in
// it. Empty, with `problem` set, when it could not be loaded.
QJsonObject loadDemo(const QString &location, const QString &key, int customers, QString *problem);
// Every active balance row `key` sees there, counted through the engine.
qsizetype activeRows(const QString &location, const QString &key);

} // namespace md::test
