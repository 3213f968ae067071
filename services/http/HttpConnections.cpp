#include "services/http/HttpConnections.h"

#include <utility>

namespace md::http {

HttpConnections::Admission HttpConnections::admit(const boost::asio::ip::address &peer)
{
    const std::lock_guard lock(m_mutex);
    if (m_open >= m_limits.maxConnections) {
        ++m_refused;
        return Admission::TooMany;
    }
    std::size_t &fromPeer = m_perAddress[peer];
    if (m_limits.maxConnectionsPerAddress != 0 && fromPeer >= m_limits.maxConnectionsPerAddress) {
        if (fromPeer == 0)
            m_perAddress.erase(peer);
        ++m_refused;
        ++m_refusedPerAddress;
        return Admission::TooManyFromAddress;
    }
    ++fromPeer;
    ++m_open;
    return Admission::Admitted;
}

void HttpConnections::attach(const std::shared_ptr<HttpConnection> &connection)
{
    const std::lock_guard lock(m_mutex);
    m_connections.emplace(connection.get(), connection);
}

void HttpConnections::release(const boost::asio::ip::address &peer,
                              const HttpConnection *connection)
{
    std::function<void()> drained;
    {
        const std::lock_guard lock(m_mutex);
        m_connections.erase(connection);
        if (const auto it = m_perAddress.find(peer); it != m_perAddress.end() && --it->second == 0)
            m_perAddress.erase(it);
        if (--m_open == 0 && m_draining)
            drained = std::exchange(m_drained, nullptr);
    }
    if (drained)
        drained();
}

std::vector<std::shared_ptr<HttpConnection>> HttpConnections::live() const
{
    std::vector<std::shared_ptr<HttpConnection>> connections;
    const std::lock_guard lock(m_mutex);
    connections.reserve(m_connections.size());
    for (const auto &[key, weak] : m_connections)
        if (auto connection = weak.lock())
            connections.push_back(std::move(connection));
    return connections;
}

void HttpConnections::drain(std::function<void()> drained)
{
    bool idle = false;
    {
        const std::lock_guard lock(m_mutex);
        if (m_draining)
            return;
        m_draining = true;
        idle = m_open == 0;
        if (!idle)
            m_drained = std::move(drained);
    }
    if (idle)
        drained();
    for (const auto &connection : live())
        connection->drain();
}

void HttpConnections::closeReading()
{
    for (const auto &connection : live())
        connection->closeIfReading();
}

bool HttpConnections::draining() const
{
    const std::lock_guard lock(m_mutex);
    return m_draining;
}

std::size_t HttpConnections::open() const
{
    const std::lock_guard lock(m_mutex);
    return m_open;
}

std::pair<std::size_t, std::size_t> HttpConnections::refusals() const
{
    const std::lock_guard lock(m_mutex);
    return {m_refused, m_refusedPerAddress};
}

std::size_t HttpConnections::refused() const
{
    const std::lock_guard lock(m_mutex);
    return m_refused;
}

} // namespace md::http
