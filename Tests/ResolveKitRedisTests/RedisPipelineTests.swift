import Testing

@testable import ResolveKitRedis

/// Scripts for the pipeline's bookkeeping: what was written, which batch a reply belongs to, what a break means.
struct RedisPipelineTests {
    @Test func repliesCompleteBatchesInOrder() {
        var pipeline = RedisPipeline()
        pipeline.enqueue(id: 1, bytes: [1, 2], count: 2)
        pipeline.enqueue(id: 2, bytes: [3], count: 1)
        var sent: [UInt8] = []
        pipeline.write { raw in
            sent += raw
            return raw.count
        }
        #expect(sent == [1, 2, 3])
        #expect(!pipeline.hasUnwritten)
        #expect(pipeline.received(.integer(1)) == .pending)
        #expect(pipeline.received(.integer(2)) == .completed(id: 1, replies: [.integer(1), .integer(2)]))
        #expect(pipeline.received(.integer(3)) == .completed(id: 2, replies: [.integer(3)]))
        #expect(pipeline.received(.integer(4)) == .unexpected)
    }

    @Test func aBreakSaysWhichBatchesMayHaveExecuted() {
        var pipeline = RedisPipeline()
        pipeline.enqueue(id: 1, bytes: [1, 1], count: 1)
        pipeline.enqueue(id: 2, bytes: [2, 2], count: 1)
        pipeline.enqueue(id: 3, bytes: [3, 3], count: 1)
        pipeline.write { _ in 3 }  // the socket took batch 1 and half of batch 2
        #expect(pipeline.hasUnwritten)
        #expect(
            pipeline.failAll() == [
                .init(id: 1, mayHaveExecuted: true), .init(id: 2, mayHaveExecuted: true),
                .init(id: 3, mayHaveExecuted: false),
            ])
        #expect(!pipeline.hasUnwritten)
        #expect(pipeline.waitingCount == 0)
    }

    @Test func anAbandonedBatchKeepsItsPlaceAndItsRepliesAreDropped() {
        var pipeline = RedisPipeline()
        pipeline.enqueue(id: 1, bytes: [1], count: 1)
        pipeline.enqueue(id: 2, bytes: [2], count: 1)
        #expect(pipeline.abandon(id: 1) == false)
        pipeline.write { $0.count }
        #expect(pipeline.received(.simpleString("OK")) == .dropped)
        #expect(pipeline.received(.integer(2)) == .completed(id: 2, replies: [.integer(2)]))
        #expect(pipeline.abandon(id: 9) == nil)
    }

    @Test func aPartialWriteResumesWhereItStopped() {
        var pipeline = RedisPipeline()
        pipeline.enqueue(id: 1, bytes: Array(0..<10), count: 1)
        var sent: [UInt8] = []
        pipeline.write { raw in
            sent += raw.prefix(4)
            return 4
        }
        pipeline.write { raw in
            sent += raw
            return raw.count
        }
        #expect(sent == Array(0..<10))
        #expect(!pipeline.hasUnwritten)
    }
}
