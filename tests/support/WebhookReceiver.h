// A webhook receiver for tests: a plain HTTP/1.1 server on a loopback port,
// on the calling thread's event loop, that keeps every request it gets and
// answers each with a status and body the test chooses. It can be taken
// down (its port kept for coming back) and can hold requests unanswered.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QTcpServer>

#include <memory>

namespace md::test {

class WebhookReceiver final : public QObject
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // names in lower case
        QByteArray body;
        QByteArray id() const { return headers.value("webhook-id"); }
    };
    struct Answer
    {
        int status = 200;
        QByteArray body = "ok";
        QList<std::pair<QByteArray, QByteArray>> headers;
    };

    explicit WebhookReceiver(QObject *parent = nullptr);
    ~WebhookReceiver() override;

    // Listens on 127.0.0.1 (the port chosen before, or a free one): false when it cannot.
    bool up();
    // Stops listening and drops every connection; the port is kept for up().
    void down();
    quint16 port() const { return m_port; }
    QByteArray url(const QByteArray &path = "/hooks") const;

    void setAnswer(Answer answer) { m_answer = std::move(answer); }
    // The next requests get these, in order, then the answer set above.
    void queueAnswers(QList<Answer> answers) { m_queued += std::move(answers); }
    // From now on requests are kept unanswered, their connections open, as
    // a receiver that accepts and never answers does, until release().
    void hold() { m_holding = true; }
    // Answers every request held, and holds no more.
    void release();
    // Requests held unanswered whose connection is still open.
    qsizetype held() const { return m_held.size(); }
    const QList<Request> &requests() const { return m_requests; }
    QList<QByteArray> ids() const;

private:
    void read(QTcpSocket *socket);
    void answer(QTcpSocket *socket);

    QTcpServer m_server;
    quint16 m_port = 0;
    Answer m_answer;
    QList<Answer> m_queued;
    QList<Request> m_requests;
    QHash<QTcpSocket *, QByteArray> m_buffers; // the connections open
    bool m_holding = false;
    QList<QTcpSocket *> m_held; // one per request held on a connection still open
};

} // namespace md::test
