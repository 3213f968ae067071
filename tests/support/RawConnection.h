// A TCP connection that sends exactly the bytes a test gives it, for clients
// that break the rules on purpose: half a header, a body that never comes,
// pipelined requests, a close before the answer. Blocking POSIX sockets with
// deadlines, so thousands of them cost a test little.
#pragma once

#include <QByteArray>
#include <QList>

#include <chrono>

namespace md::test {

class RawConnection final
{
public:
    using Duration = std::chrono::milliseconds;

    struct Answer
    {
        int status = 0;  // 0: none came (closed or timed out)
        QByteArray head; // status line and fields, lower case
        QByteArray body;
    };

    explicit RawConnection(quint16 port);
    ~RawConnection();
    Q_DISABLE_COPY_MOVE(RawConnection)

    bool isOpen() const { return m_fd >= 0; }
    bool send(const QByteArray &bytes);
    void shutdownWrite();
    void close(); // at once, with a reset if answers are unread (SO_LINGER 0)
    // The next answer, or status 0 if the server closed or `wait` passed.
    Answer read(Duration wait = Duration(10000));
    // True once the server has closed its side (read returns end of file)
    // within `wait`; what arrived before is kept in received().
    bool waitForClose(Duration wait);
    const QByteArray &received() const { return m_buffer; }

    // A request with Host and Content-Length; `fields` are whole lines without CRLF.
    static QByteArray request(const QByteArray &method, const QByteArray &path,
                              const QByteArray &body, const QList<QByteArray> &fields = {});

private:
    // Reads what is there within `wait`; false on end of file, error or timeout.
    bool readSome(Duration wait);

    int m_fd = -1;
    QByteArray m_buffer;
    bool m_eof = false;
};

} // namespace md::test
