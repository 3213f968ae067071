// Where a webhook may be sent (docs/api.md, "Webhooks: safe to point
// anywhere"): https only and public addresses only, unless the server was
// started with --webhooks-allow-http or --webhooks-allow-private. The URL
// is checked when an endpoint is made or changed; the address a name
// resolves to is checked again before every attempt (the sender asks
// addressProblem), so a name that later points inside is caught.
#pragma once

#include <QString>

#include <optional>

namespace md::engine {

struct WebhookPolicy
{
    bool allowHttp = false;
    bool allowPrivate = false;
};

class WebhookUrlRule final
{
public:
    // Why `url` may not be an endpoint's under `policy`; nullopt when it may.
    static std::optional<QString> urlProblem(const QString &url, const WebhookPolicy &policy);
    // Why a delivery may not go to `address` (an IPv4 or IPv6 literal):
    // loopback, private, link-local (the cloud metadata address among
    // them), unspecified, multicast or reserved; nullopt for a public one.
    // An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-translated,
    // NAT64, 6to4, IPv4-compatible) is judged by the address it carries, and
    // the translated and compatible forms, which no public network routes,
    // are refused whatever they carry.
    static std::optional<QString> addressProblem(const QString &address);
};

} // namespace md::engine
