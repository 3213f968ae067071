// The HTTP answers of the API: JSON bodies, and errors as {message, code}
// with internal errors reduced to a reference (the log has the details).
#pragma once

#include "services/api/ApiError.h"
#include "services/http/HttpExchange.h"

#include <QByteArray>

namespace md::server {

http::HttpResponse jsonAnswer(int status, QByteArray body);
http::HttpResponse errorAnswer(const api::ApiError &error);
http::HttpResponse methodNotAllowed(const QByteArray &path, const QByteArray &allowed);
api::ApiError shuttingDown();
// A production key on a route for sandboxes: ClockSweep's words, so a server
// that refuses before the body says what the engine says after it.
api::ApiError sandboxOnly();

} // namespace md::server
