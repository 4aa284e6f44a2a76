import Foundation
import Testing

@testable import ASNMigrateKit

/// `V1SecretStripper`: the secrets leave, every other byte stays, and the result parses as the record less its
/// secrets (what `JSONParser(skippingKeys: Envelope.secretKeys)` reads from the original).
@Suite struct V1SecretStripperTests {
    @Test(arguments: [
        (#"{"a":1,"password":"x","b":2}"#, #"{"a":1,"b":2}"#),
        (#"{"password":"x","b":2}"#, #"{"b":2}"#),
        (#"{"password":"x","latest_receipt":"y","b":2}"#, #"{"b":2}"#),
        (#"{"b":2,"password":"x","latest_receipt":"y"}"#, #"{"b":2}"#),
        (#"{ "password" : "x" }"#, #"{  }"#),
        (
            #"{"u":{"latest_receipt":"y","latest_receipt_info":[{"latest_expired_receipt":{"n":[1,"]"]},"id":"7"}]}}"#,
            #"{"u":{"latest_receipt_info":[{"id":"7"}]}}"#
        ),
        (#"{"pass\u0077ord":"x","b":"pass\"word"}"#, #"{"b":"pass\"word"}"#),
        (#"{"body":"{\"password\":\"x\",\"n\":1}","t":2}"#, #"{"body":"{\"n\":1}","t":2}"#),
        (#"{"a":1,"note":"password"}"#, #"{"a":1,"note":"password"}"#),
        (#"{"a":1,"password":"cut sho"#, #"{"a":1,"password":"*******"#)
    ])
    func strips(_ input: String, _ expected: String) throws {
        let stripped = V1SecretStripper.strip(Array(input.utf8))
        #expect(String(decoding: stripped, as: UTF8.self) == expected)
        if let original = try? JSONParser(skippingKeys: Envelope.secretKeys).parse(Array(input.utf8)),
            !input.contains("body")
        {
            #expect(try JSONParser().parse(stripped) == original)
        }
    }

    @Test(arguments: [
        (#"{"a":1,"password":"s3cr\"et","b":2"#, #"{"a":1,"password":"********","b":2"#),
        (#"{"password" : "x", "latest_receipt":"MIIT…" ,"#, #"{"password" : "*", "latest_receipt":"*******" ,"#),
        (#"{"body":"{\"password\":\"hunter2\",\"n\":1"#, #"{"body":"{\"password\":\"*******\",\"n\":1"#),
        (#"{"a":"password","b":"#, #"{"a":"password","b":"#)
    ])
    func masksSecretsInDamagedRecordsByteForByte(_ input: String, _ expected: String) {
        // Bytes that are not JSON become a reject naming byte offsets: the mask keeps every offset.
        let masked = V1SecretStripper.strip(Array(input.utf8))
        #expect(String(decoding: masked, as: UTF8.self) == expected)
        #expect(masked.count == input.utf8.count)
    }

    @Test func leavesARecordWithoutSecretsAsItWas() {
        let bytes = Array(#"{"notification_type":"DID_RENEW","environment":"PROD","n":1.50}"#.utf8)
        #expect(V1SecretStripper.strip(bytes) == bytes)
    }
}
