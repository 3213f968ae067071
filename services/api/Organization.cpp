#include "services/api/Organization.h"

namespace md::api {

using namespace Qt::StringLiterals;

Organization Organization::read(const JsonReader &reader)
{
    reader.object();
    Organization organization;
    organization.id = reader.field("id"_L1).string();
    organization.slug = reader.field("slug"_L1).string();
    return organization;
}

QJsonObject Organization::toJson() const
{
    return {{u"id"_s, id}, {u"slug"_s, slug}};
}

} // namespace md::api
