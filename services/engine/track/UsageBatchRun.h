// usage.batch in the engine (docs/api.md, "usage.batch"): each event of a
// batch handed over as a call of its own, with its own answer at its
// index. Synchronous batches go to the writer together (TrackWriter::
// submitAll: few transactions for many events); async ones are checked one
// by one and stored together (TrackQueue::enqueueAll), each answered 202 or
// refused. An event that did not read is answered with its 400 at once.
#pragma once

#include "services/api/UsageBatch.h"
#include "services/engine/sql/Scope.h"

#include <functional>

namespace md::engine {

class TrackQueue;
class TrackWriter;

class UsageBatchRun final
{
public:
    // Runs once every event is answered, on the thread of the last answer.
    using Done = std::function<void(api::UsageBatchResponse)>;
    static void start(TrackWriter &writer, TrackQueue &queue, const Scope &scope,
                      const api::UsageBatchRequest &request, Done done);
};

} // namespace md::engine
