// SIGTERM and SIGINT as a Qt signal: the handler only writes a byte to a
// socket pair; the event loop reads it and emits received().
#pragma once

#include <QObject>

class QSocketNotifier;

namespace md::server {

class ShutdownSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShutdownSignals)

public:
    explicit ShutdownSignals(QObject *parent = nullptr);
    ~ShutdownSignals() override;

Q_SIGNALS:
    void received(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace md::server
