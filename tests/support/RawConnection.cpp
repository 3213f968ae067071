#include "tests/support/RawConnection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace md::test {

RawConnection::RawConnection(quint16 port)
{
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        ::close(m_fd);
        m_fd = -1;
        return;
    }
    const int on = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

RawConnection::~RawConnection()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool RawConnection::send(const QByteArray &bytes)
{
    qsizetype sent = 0;
    while (m_fd >= 0 && sent < bytes.size()) {
        const ssize_t n =
            ::send(m_fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += n;
    }
    return m_fd >= 0;
}

void RawConnection::shutdownWrite()
{
    if (m_fd >= 0)
        ::shutdown(m_fd, SHUT_WR);
}

void RawConnection::close()
{
    if (m_fd < 0)
        return;
    const linger reset{1, 0};
    ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    ::close(m_fd);
    m_fd = -1;
}

bool RawConnection::readSome(Duration wait)
{
    if (m_fd < 0 || m_eof)
        return false;
    pollfd poll{m_fd, POLLIN, 0};
    if (::poll(&poll, 1, int(wait.count())) <= 0)
        return false;
    char chunk[65536];
    const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
    if (n <= 0) {
        m_eof = true;
        return false;
    }
    m_buffer.append(chunk, n);
    return true;
}

RawConnection::Answer RawConnection::read(Duration wait)
{
    const auto deadline = std::chrono::steady_clock::now() + wait;
    const auto left = [&] {
        return std::max(Duration(0), std::chrono::duration_cast<Duration>(
                                         deadline - std::chrono::steady_clock::now()));
    };
    while (!m_buffer.contains("\r\n\r\n"))
        if (!readSome(left()))
            return {};
    const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n") + 4;
    Answer answer;
    answer.head = m_buffer.left(headerEnd).toLower();
    qsizetype length = 0;
    if (const qsizetype at = answer.head.indexOf("content-length:"); at >= 0)
        length = answer.head.mid(at + 15, answer.head.indexOf("\r\n", at) - at - 15)
                     .trimmed()
                     .toLongLong();
    while (m_buffer.size() < headerEnd + length)
        if (!readSome(left()))
            return {};
    answer.status = answer.head.mid(9, 3).toInt();
    answer.body = m_buffer.mid(headerEnd, length);
    m_buffer.remove(0, headerEnd + length);
    return answer;
}

bool RawConnection::waitForClose(Duration wait)
{
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!m_eof) {
        const auto left =
            std::chrono::duration_cast<Duration>(deadline - std::chrono::steady_clock::now());
        if (left <= Duration(0))
            return false;
        if (!readSome(left) && !m_eof)
            return false;
    }
    return true;
}

QByteArray RawConnection::request(const QByteArray &method, const QByteArray &path,
                                  const QByteArray &body, const QList<QByteArray> &fields)
{
    QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (const QByteArray &field : fields)
        request += field + "\r\n";
    if (!body.isEmpty() || method == "POST")
        request += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    return request + "\r\n" + body;
}

} // namespace md::test
