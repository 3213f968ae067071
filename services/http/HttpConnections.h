// The connections a server has open: admission against the limits (all and
// per client address), and the drain at shutdown. Shared by the acceptor and
// every connection, from any network thread.
#pragma once

#include "services/http/HttpLimits.h"

#include <boost/asio/ip/address.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace md::http {

// What the registry asks of a connection, on the connection's own strand.
class HttpConnection
{
public:
    virtual ~HttpConnection() = default;
    // Shutdown began: close at once if idle; else close after the answer.
    virtual void drain() = 0;
    // The drain's time is up: close if still reading a request.
    virtual void closeIfReading() = 0;
};

class HttpConnections final
{
public:
    explicit HttpConnections(const HttpLimits &limits)
        : m_limits(limits)
    {}

    enum class Admission { Admitted, TooMany, TooManyFromAddress };
    Admission admit(const boost::asio::ip::address &peer);
    void attach(const std::shared_ptr<HttpConnection> &connection);
    // A connection admitted earlier has closed.
    void release(const boost::asio::ip::address &peer, const HttpConnection *connection);

    // Starts the drain; `drained` runs once when the last connection is gone.
    void drain(std::function<void()> drained);
    void closeReading();
    bool draining() const;

    std::size_t open() const;
    std::size_t refused() const;
    // Those, and of those the ones refused for the limit per address, read together.
    std::pair<std::size_t, std::size_t> refusals() const;

private:
    std::vector<std::shared_ptr<HttpConnection>> live() const;

    const HttpLimits m_limits;
    mutable std::mutex m_mutex;
    std::map<boost::asio::ip::address, std::size_t> m_perAddress;
    std::map<const HttpConnection *, std::weak_ptr<HttpConnection>> m_connections;
    std::size_t m_open = 0;
    std::size_t m_refused = 0;
    std::size_t m_refusedPerAddress = 0;
    bool m_draining = false;
    std::function<void()> m_drained;
};

} // namespace md::http
