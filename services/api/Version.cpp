#include "services/api/Version.h"

namespace md::api {

QString meterdeskVersion()
{
    return QStringLiteral(MD_VERSION);
}

} // namespace md::api
