#include "services/engine/webhooks/WebhookUrlRule.h"

#include <QHostAddress>
#include <QUrl>

#include <algorithm>

namespace md::engine {

using namespace Qt::StringLiterals;

namespace {

// Ranges no delivery may reach (RFC 6890's special-purpose registries).
struct Range
{
    const char *network;
    int prefix;
    const char *what;
};
constexpr Range Refused[] = {
    {"0.0.0.0", 8, "an unspecified address"},
    {"10.0.0.0", 8, "a private address"},
    {"100.64.0.0", 10, "a shared (carrier-grade NAT) address"},
    {"127.0.0.0", 8, "a loopback address"},
    {"169.254.0.0", 16, "a link-local address (cloud metadata lives there)"},
    {"172.16.0.0", 12, "a private address"},
    {"192.0.0.0", 24, "a reserved address"},
    {"192.168.0.0", 16, "a private address"},
    {"198.18.0.0", 15, "a benchmarking address"},
    {"224.0.0.0", 4, "a multicast address"},
    {"240.0.0.0", 4, "a reserved address"},
    {"::", 128, "an unspecified address"},
    {"::1", 128, "a loopback address"},
    {"2001::", 32, "a Teredo address (it carries another address inside)"},
    {"64:ff9b:1::", 48, "a translated address"},
    {"fc00::", 7, "a private (unique local) address"},
    {"fe80::", 10, "a link-local address"},
    {"ff00::", 8, "a multicast address"},
};

// IPv6 forms that carry an IPv4 address, which decides for them: the kernel,
// a translator or a gateway may deliver to it (::ffff:0:127.0.0.1, issue 51).
// `routed`: a public network may carry the form itself, so a public address
// inside is allowed; the others are refused whatever they hold.
struct Carrier
{
    const char *network;
    int prefix;
    int at; // the IPv4 address's first byte
    bool routed;
    const char *what;
};
constexpr Carrier Carriers[] = {
    {"::ffff:0:0", 96, 12, true, "an IPv4-mapped address"},
    {"::ffff:0:0:0", 96, 12, false, "an IPv4-translated address"},
    {"64:ff9b::", 96, 12, true, "a NAT64 address"},
    {"2002::", 16, 2, true, "a 6to4 address"},
    {"::", 96, 12, false, "an IPv4-compatible address"}, // after :: and ::1, which it holds
};

std::optional<QString> rangeProblem(const QHostAddress &address)
{
    for (const Range &range : Refused)
        if (address.isInSubnet(QHostAddress(QString::fromLatin1(range.network)), range.prefix))
            return QString::fromLatin1(range.what);
    return std::nullopt;
}

} // namespace

std::optional<QString> WebhookUrlRule::urlProblem(const QString &text, const WebhookPolicy &policy)
{
    const QUrl url(text, QUrl::StrictMode);
    if (url.scheme() != "https"_L1 && !(policy.allowHttp && url.scheme() == "http"_L1))
        return policy.allowHttp ? u"must be an http:// or https:// URL"_s
                                : u"must be an https:// URL (this server does not send webhooks"
                                  " over plain http)"_s;
    if (policy.allowPrivate)
        return std::nullopt;
    QString host = url.host();
    while (host.endsWith(u'.')) // "localhost." is localhost
        host.chop(1);
    if (host.compare("localhost"_L1, Qt::CaseInsensitive) == 0 ||
        host.endsWith(".localhost"_L1, Qt::CaseInsensitive))
        return u"points at this machine (localhost); webhooks go to public addresses only"_s;
    if (QHostAddress literal(host); !literal.isNull())
        if (const auto problem = addressProblem(literal.toString()))
            return u"points at %1; webhooks go to public addresses only"_s.arg(*problem);
    return std::nullopt;
}

std::optional<QString> WebhookUrlRule::addressProblem(const QString &text)
{
    const QHostAddress address(text);
    if (address.isNull())
        return u"an address that is not one (%1)"_s.arg(text);
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return rangeProblem(address);
    const Q_IPV6ADDR bytes = address.toIPv6Address();
    // :: and ::1 are themselves, not IPv4-compatible addresses.
    if (std::all_of(bytes.c, bytes.c + 15, [](quint8 b) { return b == 0; }) && bytes[15] <= 1)
        return rangeProblem(address);
    for (const Carrier &carrier : Carriers) {
        if (!address.isInSubnet(QHostAddress(QString::fromLatin1(carrier.network)), carrier.prefix))
            continue;
        const quint32 inside = quint32(bytes[carrier.at]) << 24 |
                               quint32(bytes[carrier.at + 1]) << 16 |
                               quint32(bytes[carrier.at + 2]) << 8 | bytes[carrier.at + 3];
        if (const auto problem = rangeProblem(QHostAddress(inside)))
            return u"%1 inside %2"_s.arg(*problem, QString::fromLatin1(carrier.what));
        if (!carrier.routed)
            return u"%1, which no public network routes"_s.arg(QString::fromLatin1(carrier.what));
        return std::nullopt;
    }
    return rangeProblem(address);
}

} // namespace md::engine
