// What HttpPoster sends and keeps (private to services/http, Beast inside):
// a delivery's request, and the body of its answer as kept.
#pragma once

#include "services/api/Version.h"

#include <boost/beast/http.hpp>

#include <QByteArray>
#include <QList>
#include <QUrl>

#include <algorithm>
#include <string>

namespace md::http::post {

namespace beast = boost::beast;
namespace beasthttp = beast::http;

// An answer is read up to this so the connection can be kept; a longer one
// is read no further (its first keptAnswerBytes are kept all the same) and
// its connection is closed.
constexpr std::uint64_t MaxAnswerRead = 64 * 1024;

// An answer's body as kept: its first bytes, however long it is.
struct KeptBody
{
    struct value_type
    {
        std::string kept;
        std::size_t keep = 0;
        std::uint64_t read = 0;
        bool tooLong = false; // read no further than MaxAnswerRead
    };

    class reader
    {
    public:
        template <bool isRequest, class Fields>
        reader(beasthttp::header<isRequest, Fields> &, value_type &body)
            : m_body(body)
        {}
        void init(const boost::optional<std::uint64_t> &, beast::error_code &error) { error = {}; }
        template <class Buffers> std::size_t put(const Buffers &buffers, beast::error_code &error)
        {
            error = {};
            std::size_t size = 0;
            for (const auto buffer : beast::buffers_range_ref(buffers)) {
                const std::size_t room = m_body.keep - std::min(m_body.keep, m_body.kept.size());
                m_body.kept.append(static_cast<const char *>(buffer.data()),
                                   std::min(room, buffer.size()));
                size += buffer.size();
            }
            m_body.read += size;
            if (m_body.read > MaxAnswerRead) {
                m_body.tooLong = true;
                error = beasthttp::error::body_limit;
            }
            return size;
        }
        void finish(beast::error_code &error) { error = {}; }

    private:
        value_type &m_body;
    };
};

// The POST of `body` to `url`, kept alive.
inline beasthttp::request<beasthttp::string_body>
requestFor(const QUrl &url, const QList<std::pair<QByteArray, QByteArray>> &headers,
           const QByteArray &body)
{
    QString target = url.path(QUrl::FullyEncoded);
    if (target.isEmpty())
        target = QStringLiteral("/");
    if (url.hasQuery())
        target += u'?' + url.query(QUrl::FullyEncoded);
    beasthttp::request<beasthttp::string_body> request{beasthttp::verb::post, target.toStdString(),
                                                       11};
    QString host = url.host(QUrl::FullyEncoded);
    if (host.contains(u':'))
        host = u'[' + host + u']';
    if (url.port() != -1)
        host += u':' + QString::number(url.port());
    request.set(beasthttp::field::host, host.toStdString());
    request.set(beasthttp::field::user_agent,
                "Meterdesk-Webhooks/" + api::meterdeskVersion().toStdString());
    request.set(beasthttp::field::content_type, "application/json");
    for (const auto &[name, value] : headers)
        request.set(name.toStdString(), value.toStdString());
    request.body().assign(body.constData(), std::size_t(body.size()));
    request.keep_alive(true);
    request.prepare_payload();
    return request;
}

} // namespace md::http::post
