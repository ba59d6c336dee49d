// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
"use strict";
export const getLiveness = validate20;
const schema31 = {"$id":"response-getLiveness","type":"object","required":["status"],"properties":{"status":{"const":"ok"}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-getLiveness" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.status === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.status !== undefined){
if("ok" !== data.status){
const err1 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/const",keyword:"const",params:{allowedValue: "ok"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"status":true},"dynamicProps":false,"dynamicItems":false};

export const getReadiness = validate21;
const schema32 = {"$id":"response-getReadiness","$ref":"engine.json#/components/schemas/Readiness"};
const schema34 = {"type":"object","required":["status","checks","sandbox"],"properties":{"status":{"enum":["ready","unavailable"]},"checks":{"type":"object","description":"One entry per dependency (`database`; `redis` when REDIS_URL is set), keyed by its name.","additionalProperties":{"$ref":"engine.json#/components/schemas/DependencyCheck"}},"sandbox":{"type":"object","required":["confinement"],"description":"How the processes that run MCP `execute` scripts are confined (docs/operations/security.md).","properties":{"confinement":{"enum":["bwrap","permission"],"description":"`bwrap`: Node's permission model inside bubblewrap (own network, PID and mount namespaces); `permission`: the permission model alone."}}}}};
const schema35 = {"type":"object","required":["status","latencyMs"],"properties":{"status":{"enum":["ok","unavailable"]},"backend":{"type":"string","description":"Which implementation answered, e.g. `sqlite`, `postgres` or `redis`."},"latencyMs":{"type":"number","description":"Time the probe took (up to its timeout)."},"error":{"type":"string","description":"A short error code (e.g. `ECONNREFUSED`, `TIMEOUT`, a SQLSTATE); never a message or address."}}};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate23.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.status === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.checks === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "checks"},message:"must have required property '"+"checks"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.sandbox === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "sandbox"},message:"must have required property '"+"sandbox"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.status !== undefined){
let data0 = data.status;
if(!((data0 === "ready") || (data0 === "unavailable"))){
const err3 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema34.properties.status.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.checks !== undefined){
let data1 = data.checks;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
for(const key0 in data1){
let data2 = data1[key0];
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.status === undefined){
const err4 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"engine.json#/components/schemas/DependencyCheck/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data2.latencyMs === undefined){
const err5 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"engine.json#/components/schemas/DependencyCheck/required",keyword:"required",params:{missingProperty: "latencyMs"},message:"must have required property '"+"latencyMs"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data2.status !== undefined){
let data3 = data2.status;
if(!((data3 === "ok") || (data3 === "unavailable"))){
const err6 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/status",schemaPath:"engine.json#/components/schemas/DependencyCheck/properties/status/enum",keyword:"enum",params:{allowedValues: schema35.properties.status.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data2.backend !== undefined){
if(typeof data2.backend !== "string"){
const err7 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/backend",schemaPath:"engine.json#/components/schemas/DependencyCheck/properties/backend/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data2.latencyMs !== undefined){
if(!(typeof data2.latencyMs == "number")){
const err8 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/latencyMs",schemaPath:"engine.json#/components/schemas/DependencyCheck/properties/latencyMs/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data2.error !== undefined){
if(typeof data2.error !== "string"){
const err9 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1")+"/error",schemaPath:"engine.json#/components/schemas/DependencyCheck/properties/error/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/checks/" + key0.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"engine.json#/components/schemas/DependencyCheck/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/checks",schemaPath:"#/properties/checks/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.sandbox !== undefined){
let data7 = data.sandbox;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if(data7.confinement === undefined){
const err12 = {instancePath:instancePath+"/sandbox",schemaPath:"#/properties/sandbox/required",keyword:"required",params:{missingProperty: "confinement"},message:"must have required property '"+"confinement"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data7.confinement !== undefined){
let data8 = data7.confinement;
if(!((data8 === "bwrap") || (data8 === "permission"))){
const err13 = {instancePath:instancePath+"/sandbox/confinement",schemaPath:"#/properties/sandbox/properties/confinement/enum",keyword:"enum",params:{allowedValues: schema34.properties.sandbox.properties.confinement.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/sandbox",schemaPath:"#/properties/sandbox/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate23.errors = vErrors;
return errors === 0;
}
validate23.evaluated = {"props":{"status":true,"checks":true,"sandbox":true},"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-getReadiness" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate23(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":{"status":true,"checks":true,"sandbox":true},"dynamicProps":false,"dynamicItems":false};

export const startDeviceAuthorization = validate25;
const schema36 = {"$id":"response-startDeviceAuthorization","type":"object","required":["device_code","user_code","verification_uri","verification_uri_complete","expires_in","interval"],"properties":{"device_code":{"type":"string"},"user_code":{"type":"string"},"verification_uri":{"type":"string"},"verification_uri_complete":{"type":"string"},"expires_in":{"type":"integer"},"interval":{"type":"integer"}}};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-startDeviceAuthorization" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.device_code === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "device_code"},message:"must have required property '"+"device_code"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.user_code === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_code"},message:"must have required property '"+"user_code"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.verification_uri === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verification_uri"},message:"must have required property '"+"verification_uri"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.verification_uri_complete === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "verification_uri_complete"},message:"must have required property '"+"verification_uri_complete"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.expires_in === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expires_in"},message:"must have required property '"+"expires_in"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.interval === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "interval"},message:"must have required property '"+"interval"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.device_code !== undefined){
if(typeof data.device_code !== "string"){
const err6 = {instancePath:instancePath+"/device_code",schemaPath:"#/properties/device_code/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.user_code !== undefined){
if(typeof data.user_code !== "string"){
const err7 = {instancePath:instancePath+"/user_code",schemaPath:"#/properties/user_code/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.verification_uri !== undefined){
if(typeof data.verification_uri !== "string"){
const err8 = {instancePath:instancePath+"/verification_uri",schemaPath:"#/properties/verification_uri/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.verification_uri_complete !== undefined){
if(typeof data.verification_uri_complete !== "string"){
const err9 = {instancePath:instancePath+"/verification_uri_complete",schemaPath:"#/properties/verification_uri_complete/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.expires_in !== undefined){
let data4 = data.expires_in;
if(!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))){
const err10 = {instancePath:instancePath+"/expires_in",schemaPath:"#/properties/expires_in/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.interval !== undefined){
let data5 = data.interval;
if(!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))){
const err11 = {instancePath:instancePath+"/interval",schemaPath:"#/properties/interval/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"props":{"device_code":true,"user_code":true,"verification_uri":true,"verification_uri_complete":true,"expires_in":true,"interval":true},"dynamicProps":false,"dynamicItems":false};

export const exchangeDeviceCode = validate26;
const schema37 = {"$id":"response-exchangeDeviceCode","type":"object","required":["access_token","token_type","expires_in","subject"],"properties":{"access_token":{"type":"string"},"token_type":{"const":"Bearer"},"expires_in":{"type":"integer","description":"Seconds until the credential expires."},"subject":{"type":"string"}}};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-exchangeDeviceCode" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate26.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.access_token === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "access_token"},message:"must have required property '"+"access_token"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.token_type === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "token_type"},message:"must have required property '"+"token_type"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.expires_in === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expires_in"},message:"must have required property '"+"expires_in"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.subject === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "subject"},message:"must have required property '"+"subject"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.access_token !== undefined){
if(typeof data.access_token !== "string"){
const err4 = {instancePath:instancePath+"/access_token",schemaPath:"#/properties/access_token/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.token_type !== undefined){
if("Bearer" !== data.token_type){
const err5 = {instancePath:instancePath+"/token_type",schemaPath:"#/properties/token_type/const",keyword:"const",params:{allowedValue: "Bearer"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.expires_in !== undefined){
let data2 = data.expires_in;
if(!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))){
const err6 = {instancePath:instancePath+"/expires_in",schemaPath:"#/properties/expires_in/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.subject !== undefined){
if(typeof data.subject !== "string"){
const err7 = {instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate26.errors = vErrors;
return errors === 0;
}
validate26.evaluated = {"props":{"access_token":true,"token_type":true,"expires_in":true,"subject":true},"dynamicProps":false,"dynamicItems":false};

export const whoami = validate27;
const schema38 = {"$id":"response-whoami","type":"object","required":["subject","credentialId","createdAt"],"properties":{"subject":{"type":"string"},"credentialId":{"type":"string"},"createdAt":{"type":"string","format":"date-time"},"expiresAt":{"type":["string","null"]}}};
const formats0 = require("ajv-formats/dist/formats").fullFormats["date-time"];

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-whoami" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate27.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.subject === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "subject"},message:"must have required property '"+"subject"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.credentialId === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "credentialId"},message:"must have required property '"+"credentialId"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.createdAt === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.subject !== undefined){
if(typeof data.subject !== "string"){
const err3 = {instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.credentialId !== undefined){
if(typeof data.credentialId !== "string"){
const err4 = {instancePath:instancePath+"/credentialId",schemaPath:"#/properties/credentialId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.createdAt !== undefined){
let data2 = data.createdAt;
if(typeof data2 === "string"){
if(!(formats0.validate(data2))){
const err5 = {instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data3 = data.expiresAt;
if((typeof data3 !== "string") && (data3 !== null)){
const err7 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema38.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate27.errors = vErrors;
return errors === 0;
}
validate27.evaluated = {"props":{"subject":true,"credentialId":true,"createdAt":true,"expiresAt":true},"dynamicProps":false,"dynamicItems":false};

export const listCliCredentials = validate28;
const schema39 = {"$id":"response-listCliCredentials","type":"object","required":["credentials"],"properties":{"credentials":{"type":"array","items":{"type":"object","required":["id","subject","createdAt","expiresAt","lastUsedAt","revokedAt","current"],"properties":{"id":{"type":"string"},"subject":{"type":"string"},"createdAt":{"type":"string","format":"date-time"},"expiresAt":{"type":["string","null"]},"lastUsedAt":{"type":["string","null"]},"revokedAt":{"type":["string","null"]},"current":{"type":"boolean"}}}}}};

function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listCliCredentials" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate28.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.credentials === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "credentials"},message:"must have required property '"+"credentials"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.credentials !== undefined){
let data0 = data.credentials;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.id === undefined){
const err1 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.subject === undefined){
const err2 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "subject"},message:"must have required property '"+"subject"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.createdAt === undefined){
const err3 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.expiresAt === undefined){
const err4 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.lastUsedAt === undefined){
const err5 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "lastUsedAt"},message:"must have required property '"+"lastUsedAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.revokedAt === undefined){
const err6 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "revokedAt"},message:"must have required property '"+"revokedAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.current === undefined){
const err7 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/required",keyword:"required",params:{missingProperty: "current"},message:"must have required property '"+"current"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data1.id !== undefined){
if(typeof data1.id !== "string"){
const err8 = {instancePath:instancePath+"/credentials/" + i0+"/id",schemaPath:"#/properties/credentials/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.subject !== undefined){
if(typeof data1.subject !== "string"){
const err9 = {instancePath:instancePath+"/credentials/" + i0+"/subject",schemaPath:"#/properties/credentials/items/properties/subject/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.createdAt !== undefined){
let data4 = data1.createdAt;
if(typeof data4 === "string"){
if(!(formats0.validate(data4))){
const err10 = {instancePath:instancePath+"/credentials/" + i0+"/createdAt",schemaPath:"#/properties/credentials/items/properties/createdAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/credentials/" + i0+"/createdAt",schemaPath:"#/properties/credentials/items/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.expiresAt !== undefined){
let data5 = data1.expiresAt;
if((typeof data5 !== "string") && (data5 !== null)){
const err12 = {instancePath:instancePath+"/credentials/" + i0+"/expiresAt",schemaPath:"#/properties/credentials/items/properties/expiresAt/type",keyword:"type",params:{type: schema39.properties.credentials.items.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data1.lastUsedAt !== undefined){
let data6 = data1.lastUsedAt;
if((typeof data6 !== "string") && (data6 !== null)){
const err13 = {instancePath:instancePath+"/credentials/" + i0+"/lastUsedAt",schemaPath:"#/properties/credentials/items/properties/lastUsedAt/type",keyword:"type",params:{type: schema39.properties.credentials.items.properties.lastUsedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.revokedAt !== undefined){
let data7 = data1.revokedAt;
if((typeof data7 !== "string") && (data7 !== null)){
const err14 = {instancePath:instancePath+"/credentials/" + i0+"/revokedAt",schemaPath:"#/properties/credentials/items/properties/revokedAt/type",keyword:"type",params:{type: schema39.properties.credentials.items.properties.revokedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data1.current !== undefined){
if(typeof data1.current !== "boolean"){
const err15 = {instancePath:instancePath+"/credentials/" + i0+"/current",schemaPath:"#/properties/credentials/items/properties/current/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/credentials/" + i0,schemaPath:"#/properties/credentials/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/credentials",schemaPath:"#/properties/credentials/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate28.errors = vErrors;
return errors === 0;
}
validate28.evaluated = {"props":{"credentials":true},"dynamicProps":false,"dynamicItems":false};

export const getAuthorizationServerMetadata = validate29;
const schema40 = {"$id":"response-getAuthorizationServerMetadata","$ref":"engine.json#/components/schemas/AuthorizationServerMetadata"};
const schema41 = {"type":"object","required":["issuer","authorization_endpoint","token_endpoint","response_types_supported","code_challenge_methods_supported"],"properties":{"issuer":{"type":"string"},"authorization_endpoint":{"type":"string"},"token_endpoint":{"type":"string"},"registration_endpoint":{"type":"string"},"revocation_endpoint":{"type":"string"},"response_types_supported":{"type":"array","items":{"type":"string"}},"code_challenge_methods_supported":{"type":"array","items":{"type":"string"}},"client_id_metadata_document_supported":{"type":"boolean"}}};

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-getAuthorizationServerMetadata" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.issuer === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "issuer"},message:"must have required property '"+"issuer"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.authorization_endpoint === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "authorization_endpoint"},message:"must have required property '"+"authorization_endpoint"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.token_endpoint === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "token_endpoint"},message:"must have required property '"+"token_endpoint"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.response_types_supported === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "response_types_supported"},message:"must have required property '"+"response_types_supported"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.code_challenge_methods_supported === undefined){
const err4 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "code_challenge_methods_supported"},message:"must have required property '"+"code_challenge_methods_supported"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.issuer !== undefined){
if(typeof data.issuer !== "string"){
const err5 = {instancePath:instancePath+"/issuer",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/issuer/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.authorization_endpoint !== undefined){
if(typeof data.authorization_endpoint !== "string"){
const err6 = {instancePath:instancePath+"/authorization_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/authorization_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.token_endpoint !== undefined){
if(typeof data.token_endpoint !== "string"){
const err7 = {instancePath:instancePath+"/token_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/token_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.registration_endpoint !== undefined){
if(typeof data.registration_endpoint !== "string"){
const err8 = {instancePath:instancePath+"/registration_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/registration_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.revocation_endpoint !== undefined){
if(typeof data.revocation_endpoint !== "string"){
const err9 = {instancePath:instancePath+"/revocation_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/revocation_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.response_types_supported !== undefined){
let data5 = data.response_types_supported;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
if(typeof data5[i0] !== "string"){
const err10 = {instancePath:instancePath+"/response_types_supported/" + i0,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/response_types_supported/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/response_types_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/response_types_supported/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.code_challenge_methods_supported !== undefined){
let data7 = data.code_challenge_methods_supported;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
if(typeof data7[i1] !== "string"){
const err12 = {instancePath:instancePath+"/code_challenge_methods_supported/" + i1,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/code_challenge_methods_supported/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/code_challenge_methods_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/code_challenge_methods_supported/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.client_id_metadata_document_supported !== undefined){
if(typeof data.client_id_metadata_document_supported !== "boolean"){
const err14 = {instancePath:instancePath+"/client_id_metadata_document_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/client_id_metadata_document_supported/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":{"issuer":true,"authorization_endpoint":true,"token_endpoint":true,"registration_endpoint":true,"revocation_endpoint":true,"response_types_supported":true,"code_challenge_methods_supported":true,"client_id_metadata_document_supported":true},"dynamicProps":false,"dynamicItems":false};

export const getOpenIdConfiguration = validate30;
const schema42 = {"$id":"response-getOpenIdConfiguration","$ref":"engine.json#/components/schemas/AuthorizationServerMetadata"};

function validate30(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-getOpenIdConfiguration" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate30.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.issuer === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "issuer"},message:"must have required property '"+"issuer"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.authorization_endpoint === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "authorization_endpoint"},message:"must have required property '"+"authorization_endpoint"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.token_endpoint === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "token_endpoint"},message:"must have required property '"+"token_endpoint"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.response_types_supported === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "response_types_supported"},message:"must have required property '"+"response_types_supported"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.code_challenge_methods_supported === undefined){
const err4 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/required",keyword:"required",params:{missingProperty: "code_challenge_methods_supported"},message:"must have required property '"+"code_challenge_methods_supported"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.issuer !== undefined){
if(typeof data.issuer !== "string"){
const err5 = {instancePath:instancePath+"/issuer",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/issuer/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.authorization_endpoint !== undefined){
if(typeof data.authorization_endpoint !== "string"){
const err6 = {instancePath:instancePath+"/authorization_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/authorization_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.token_endpoint !== undefined){
if(typeof data.token_endpoint !== "string"){
const err7 = {instancePath:instancePath+"/token_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/token_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.registration_endpoint !== undefined){
if(typeof data.registration_endpoint !== "string"){
const err8 = {instancePath:instancePath+"/registration_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/registration_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.revocation_endpoint !== undefined){
if(typeof data.revocation_endpoint !== "string"){
const err9 = {instancePath:instancePath+"/revocation_endpoint",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/revocation_endpoint/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.response_types_supported !== undefined){
let data5 = data.response_types_supported;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
if(typeof data5[i0] !== "string"){
const err10 = {instancePath:instancePath+"/response_types_supported/" + i0,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/response_types_supported/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/response_types_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/response_types_supported/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.code_challenge_methods_supported !== undefined){
let data7 = data.code_challenge_methods_supported;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
if(typeof data7[i1] !== "string"){
const err12 = {instancePath:instancePath+"/code_challenge_methods_supported/" + i1,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/code_challenge_methods_supported/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/code_challenge_methods_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/code_challenge_methods_supported/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.client_id_metadata_document_supported !== undefined){
if(typeof data.client_id_metadata_document_supported !== "boolean"){
const err14 = {instancePath:instancePath+"/client_id_metadata_document_supported",schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/properties/client_id_metadata_document_supported/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"engine.json#/components/schemas/AuthorizationServerMetadata/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate30.errors = vErrors;
return errors === 0;
}
validate30.evaluated = {"props":{"issuer":true,"authorization_endpoint":true,"token_endpoint":true,"registration_endpoint":true,"revocation_endpoint":true,"response_types_supported":true,"code_challenge_methods_supported":true,"client_id_metadata_document_supported":true},"dynamicProps":false,"dynamicItems":false};

export const getProtectedResourceMetadata = validate31;
const schema44 = {"$id":"response-getProtectedResourceMetadata","type":"object","required":["resource","authorization_servers"],"properties":{"resource":{"type":"string"},"authorization_servers":{"type":"array","items":{"type":"string"}},"bearer_methods_supported":{"type":"array","items":{"type":"string"}},"resource_name":{"type":"string"}}};

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-getProtectedResourceMetadata" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.resource === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "resource"},message:"must have required property '"+"resource"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.authorization_servers === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "authorization_servers"},message:"must have required property '"+"authorization_servers"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.resource !== undefined){
if(typeof data.resource !== "string"){
const err2 = {instancePath:instancePath+"/resource",schemaPath:"#/properties/resource/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.authorization_servers !== undefined){
let data1 = data.authorization_servers;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(typeof data1[i0] !== "string"){
const err3 = {instancePath:instancePath+"/authorization_servers/" + i0,schemaPath:"#/properties/authorization_servers/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/authorization_servers",schemaPath:"#/properties/authorization_servers/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.bearer_methods_supported !== undefined){
let data3 = data.bearer_methods_supported;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
if(typeof data3[i1] !== "string"){
const err5 = {instancePath:instancePath+"/bearer_methods_supported/" + i1,schemaPath:"#/properties/bearer_methods_supported/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/bearer_methods_supported",schemaPath:"#/properties/bearer_methods_supported/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.resource_name !== undefined){
if(typeof data.resource_name !== "string"){
const err7 = {instancePath:instancePath+"/resource_name",schemaPath:"#/properties/resource_name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":{"resource":true,"authorization_servers":true,"bearer_methods_supported":true,"resource_name":true},"dynamicProps":false,"dynamicItems":false};

export const listMcpServers = validate32;
const schema45 = {"$id":"response-listMcpServers","type":"object","required":["servers"],"properties":{"servers":{"type":"array","items":{"$ref":"engine.json#/components/schemas/McpServer"}}}};
const schema46 = {"type":"object","required":["name","version","versionId","active","url","services","createdAt"],"properties":{"name":{"type":"string"},"version":{"type":"string"},"versionId":{"type":"string"},"active":{"type":"boolean"},"url":{"type":"string"},"services":{"description":"The `<service>=<version>` pairs this version's operations call.","type":"array","items":{"type":"string"}},"createdAt":{"type":"string","format":"date-time"}}};

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listMcpServers" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate32.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.servers === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "servers"},message:"must have required property '"+"servers"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.servers !== undefined){
let data0 = data.servers;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err1 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.version === undefined){
const err2 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.versionId === undefined){
const err3 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.active === undefined){
const err4 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "active"},message:"must have required property '"+"active"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.url === undefined){
const err5 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.services === undefined){
const err6 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.createdAt === undefined){
const err7 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err8 = {instancePath:instancePath+"/servers/" + i0+"/name",schemaPath:"engine.json#/components/schemas/McpServer/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.version !== undefined){
if(typeof data1.version !== "string"){
const err9 = {instancePath:instancePath+"/servers/" + i0+"/version",schemaPath:"engine.json#/components/schemas/McpServer/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.versionId !== undefined){
if(typeof data1.versionId !== "string"){
const err10 = {instancePath:instancePath+"/servers/" + i0+"/versionId",schemaPath:"engine.json#/components/schemas/McpServer/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data1.active !== undefined){
if(typeof data1.active !== "boolean"){
const err11 = {instancePath:instancePath+"/servers/" + i0+"/active",schemaPath:"engine.json#/components/schemas/McpServer/properties/active/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.url !== undefined){
if(typeof data1.url !== "string"){
const err12 = {instancePath:instancePath+"/servers/" + i0+"/url",schemaPath:"engine.json#/components/schemas/McpServer/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data1.services !== undefined){
let data7 = data1.services;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
if(typeof data7[i1] !== "string"){
const err13 = {instancePath:instancePath+"/servers/" + i0+"/services/" + i1,schemaPath:"engine.json#/components/schemas/McpServer/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/servers/" + i0+"/services",schemaPath:"engine.json#/components/schemas/McpServer/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data1.createdAt !== undefined){
let data9 = data1.createdAt;
if(typeof data9 === "string"){
if(!(formats0.validate(data9))){
const err15 = {instancePath:instancePath+"/servers/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/McpServer/properties/createdAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/servers/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/McpServer/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/servers/" + i0,schemaPath:"engine.json#/components/schemas/McpServer/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/servers",schemaPath:"#/properties/servers/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
validate32.errors = vErrors;
return errors === 0;
}
validate32.evaluated = {"props":{"servers":true},"dynamicProps":false,"dynamicItems":false};

export const planMcp = validate33;
const schema47 = {"$id":"response-planMcp","$ref":"engine.json#/components/schemas/SdkPlan"};
const schema48 = {"type":"object","required":["name","changes","currentVersion","nextVersion","summary"],"properties":{"name":{"type":"string"},"currentVersion":{"type":["string","null"]},"nextVersion":{"type":["string","null"],"description":"null when nothing would change."},"changes":{"type":"array","items":{"type":"object","required":["action","kind","id"],"properties":{"action":{"enum":["+","-","~"]},"kind":{"enum":["service","operation","approval"],"description":"approval: an operation whose calls start or stop waiting for a person (MCP requireApproval)."},"id":{"type":"string"},"from":{"type":"string"},"to":{"type":"string"}}}},"summary":{"type":"object","required":["add","remove","change"],"properties":{"add":{"type":"integer"},"remove":{"type":"integer"},"change":{"type":"integer"}}}}};

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-planMcp" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate33.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.changes === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "changes"},message:"must have required property '"+"changes"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.currentVersion === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "currentVersion"},message:"must have required property '"+"currentVersion"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.nextVersion === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "nextVersion"},message:"must have required property '"+"nextVersion"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.summary === undefined){
const err4 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "summary"},message:"must have required property '"+"summary"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.currentVersion !== undefined){
let data1 = data.currentVersion;
if((typeof data1 !== "string") && (data1 !== null)){
const err6 = {instancePath:instancePath+"/currentVersion",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/currentVersion/type",keyword:"type",params:{type: schema48.properties.currentVersion.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.nextVersion !== undefined){
let data2 = data.nextVersion;
if((typeof data2 !== "string") && (data2 !== null)){
const err7 = {instancePath:instancePath+"/nextVersion",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/nextVersion/type",keyword:"type",params:{type: schema48.properties.nextVersion.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.changes !== undefined){
let data3 = data.changes;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.action === undefined){
const err8 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "action"},message:"must have required property '"+"action"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data4.kind === undefined){
const err9 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data4.id === undefined){
const err10 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data4.action !== undefined){
let data5 = data4.action;
if(!(((data5 === "+") || (data5 === "-")) || (data5 === "~"))){
const err11 = {instancePath:instancePath+"/changes/" + i0+"/action",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/action/enum",keyword:"enum",params:{allowedValues: schema48.properties.changes.items.properties.action.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data4.kind !== undefined){
let data6 = data4.kind;
if(!(((data6 === "service") || (data6 === "operation")) || (data6 === "approval"))){
const err12 = {instancePath:instancePath+"/changes/" + i0+"/kind",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/kind/enum",keyword:"enum",params:{allowedValues: schema48.properties.changes.items.properties.kind.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data4.id !== undefined){
if(typeof data4.id !== "string"){
const err13 = {instancePath:instancePath+"/changes/" + i0+"/id",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data4.from !== undefined){
if(typeof data4.from !== "string"){
const err14 = {instancePath:instancePath+"/changes/" + i0+"/from",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/from/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data4.to !== undefined){
if(typeof data4.to !== "string"){
const err15 = {instancePath:instancePath+"/changes/" + i0+"/to",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/to/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/changes",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.summary !== undefined){
let data10 = data.summary;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.add === undefined){
const err18 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "add"},message:"must have required property '"+"add"+"'"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(data10.remove === undefined){
const err19 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "remove"},message:"must have required property '"+"remove"+"'"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data10.change === undefined){
const err20 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "change"},message:"must have required property '"+"change"+"'"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data10.add !== undefined){
let data11 = data10.add;
if(!((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11)))){
const err21 = {instancePath:instancePath+"/summary/add",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/add/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data10.remove !== undefined){
let data12 = data10.remove;
if(!((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12)))){
const err22 = {instancePath:instancePath+"/summary/remove",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/remove/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data10.change !== undefined){
let data13 = data10.change;
if(!((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13)))){
const err23 = {instancePath:instancePath+"/summary/change",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/change/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
else {
const err25 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
validate33.errors = vErrors;
return errors === 0;
}
validate33.evaluated = {"props":{"name":true,"currentVersion":true,"nextVersion":true,"changes":true,"summary":true},"dynamicProps":false,"dynamicItems":false};

export const publishMcp = validate34;
const schema49 = {"$id":"response-publishMcp","$ref":"engine.json#/components/schemas/PublishResult"};
const schema50 = {"type":"object","required":["name","version","versionId","published"],"properties":{"name":{"type":"string"},"version":{"type":"string"},"versionId":{"type":"string"},"published":{"type":"boolean","description":"false when nothing changed and no version was created."},"token":{"type":"string","description":"The execution token; present on the first publish only."},"url":{"type":"string","description":"The MCP runtime URL (MCP deploys only)."}}};

function validate34(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-publishMcp" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate34.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.version === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.versionId === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.published === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "published"},message:"must have required property '"+"published"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/PublishResult/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.version !== undefined){
if(typeof data.version !== "string"){
const err5 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/PublishResult/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.versionId !== undefined){
if(typeof data.versionId !== "string"){
const err6 = {instancePath:instancePath+"/versionId",schemaPath:"engine.json#/components/schemas/PublishResult/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.published !== undefined){
if(typeof data.published !== "boolean"){
const err7 = {instancePath:instancePath+"/published",schemaPath:"engine.json#/components/schemas/PublishResult/properties/published/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.token !== undefined){
if(typeof data.token !== "string"){
const err8 = {instancePath:instancePath+"/token",schemaPath:"engine.json#/components/schemas/PublishResult/properties/token/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.url !== undefined){
if(typeof data.url !== "string"){
const err9 = {instancePath:instancePath+"/url",schemaPath:"engine.json#/components/schemas/PublishResult/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate34.errors = vErrors;
return errors === 0;
}
validate34.evaluated = {"props":{"name":true,"version":true,"versionId":true,"published":true,"token":true,"url":true},"dynamicProps":false,"dynamicItems":false};

export const listMcpTokens = validate35;
const schema51 = {"$id":"response-listMcpTokens","type":"object","required":["tokens"],"properties":{"tokens":{"type":"array","items":{"$ref":"engine.json#/components/schemas/McpToken"}}}};
const schema52 = {"type":"object","required":["id","allow","expiresAt","lastUsedAt","revokedAt","createdAt","readOnly"],"properties":{"id":{"type":"string"},"readOnly":{"type":"boolean","description":"The token calls only read-only operations."},"allow":{"type":["array","null"],"items":{"type":"string"},"description":"null means every operation."},"expiresAt":{"type":["string","null"]},"lastUsedAt":{"type":["string","null"]},"revokedAt":{"type":["string","null"]},"createdAt":{"type":"string"},"binding":{"$ref":"engine.json#/components/schemas/Binding"},"client":{"description":"Present for a grant an MCP client obtained with OAuth (its ID is revoked like a token's); absent for a static token.","type":"object","required":["id","name","redirectUri","versionId","approvedBy"],"properties":{"id":{"type":"string","description":"The client_id: a metadata document URL, or an ID from registration."},"name":{"type":"string"},"redirectUri":{"type":"string"},"versionId":{"type":"string","description":"The one MCP server version its access tokens are valid on."},"approvedBy":{"type":"string"}}}}};
const schema53 = {"type":["object","null"],"description":"Fixed selectors; authoritative over the caller's.","properties":{"endUserRef":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"},"authName":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"},"resourceId":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"}}};
const func1 = require("ajv/dist/runtime/ucs2length").default;
const pattern4 = new RegExp("^[^\\p{Cc}\\p{Cs}]+$", "u");

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.allow === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "allow"},message:"must have required property '"+"allow"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.expiresAt === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.lastUsedAt === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "lastUsedAt"},message:"must have required property '"+"lastUsedAt"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.revokedAt === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revokedAt"},message:"must have required property '"+"revokedAt"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.createdAt === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.readOnly === undefined){
const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "readOnly"},message:"must have required property '"+"readOnly"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err7 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.readOnly !== undefined){
if(typeof data.readOnly !== "boolean"){
const err8 = {instancePath:instancePath+"/readOnly",schemaPath:"#/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.allow !== undefined){
let data2 = data.allow;
if((!(Array.isArray(data2))) && (data2 !== null)){
const err9 = {instancePath:instancePath+"/allow",schemaPath:"#/properties/allow/type",keyword:"type",params:{type: schema52.properties.allow.type},message:"must be array,null"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
if(typeof data2[i0] !== "string"){
const err10 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
}
if(data.expiresAt !== undefined){
let data4 = data.expiresAt;
if((typeof data4 !== "string") && (data4 !== null)){
const err11 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema52.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.lastUsedAt !== undefined){
let data5 = data.lastUsedAt;
if((typeof data5 !== "string") && (data5 !== null)){
const err12 = {instancePath:instancePath+"/lastUsedAt",schemaPath:"#/properties/lastUsedAt/type",keyword:"type",params:{type: schema52.properties.lastUsedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.revokedAt !== undefined){
let data6 = data.revokedAt;
if((typeof data6 !== "string") && (data6 !== null)){
const err13 = {instancePath:instancePath+"/revokedAt",schemaPath:"#/properties/revokedAt/type",keyword:"type",params:{type: schema52.properties.revokedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.createdAt !== undefined){
if(typeof data.createdAt !== "string"){
const err14 = {instancePath:instancePath+"/createdAt",schemaPath:"#/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.binding !== undefined){
let data8 = data.binding;
if((!(data8 && typeof data8 == "object" && !Array.isArray(data8))) && (data8 !== null)){
const err15 = {instancePath:instancePath+"/binding",schemaPath:"engine.json#/components/schemas/Binding/type",keyword:"type",params:{type: schema53.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.endUserRef !== undefined){
let data9 = data8.endUserRef;
if(typeof data9 === "string"){
if(func1(data9) > 200){
const err16 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(func1(data9) < 1){
const err17 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(!pattern4.test(data9)){
const err18 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data8.authName !== undefined){
let data10 = data8.authName;
if(typeof data10 === "string"){
if(func1(data10) > 64){
const err20 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(func1(data10) < 1){
const err21 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(!pattern4.test(data10)){
const err22 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data8.resourceId !== undefined){
let data11 = data8.resourceId;
if(typeof data11 === "string"){
if(func1(data11) > 200){
const err24 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(func1(data11) < 1){
const err25 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(!pattern4.test(data11)){
const err26 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
}
if(data.client !== undefined){
let data12 = data.client;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.id === undefined){
const err28 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
if(data12.name === undefined){
const err29 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if(data12.redirectUri === undefined){
const err30 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/required",keyword:"required",params:{missingProperty: "redirectUri"},message:"must have required property '"+"redirectUri"+"'"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
if(data12.versionId === undefined){
const err31 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(data12.approvedBy === undefined){
const err32 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/required",keyword:"required",params:{missingProperty: "approvedBy"},message:"must have required property '"+"approvedBy"+"'"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
if(data12.id !== undefined){
if(typeof data12.id !== "string"){
const err33 = {instancePath:instancePath+"/client/id",schemaPath:"#/properties/client/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data12.name !== undefined){
if(typeof data12.name !== "string"){
const err34 = {instancePath:instancePath+"/client/name",schemaPath:"#/properties/client/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data12.redirectUri !== undefined){
if(typeof data12.redirectUri !== "string"){
const err35 = {instancePath:instancePath+"/client/redirectUri",schemaPath:"#/properties/client/properties/redirectUri/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data12.versionId !== undefined){
if(typeof data12.versionId !== "string"){
const err36 = {instancePath:instancePath+"/client/versionId",schemaPath:"#/properties/client/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data12.approvedBy !== undefined){
if(typeof data12.approvedBy !== "string"){
const err37 = {instancePath:instancePath+"/client/approvedBy",schemaPath:"#/properties/client/properties/approvedBy/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
}
else {
const err38 = {instancePath:instancePath+"/client",schemaPath:"#/properties/client/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
}
else {
const err39 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":{"id":true,"readOnly":true,"allow":true,"expiresAt":true,"lastUsedAt":true,"revokedAt":true,"createdAt":true,"binding":true,"client":true},"dynamicProps":false,"dynamicItems":false};


function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listMcpTokens" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.tokens === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tokens"},message:"must have required property '"+"tokens"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.tokens !== undefined){
let data0 = data.tokens;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
if(!(validate36(data0[i0], {instancePath:instancePath+"/tokens/" + i0,parentData:data0,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate36.errors : vErrors.concat(validate36.errors);
errors = vErrors.length;
}
}
}
else {
const err1 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":{"tokens":true},"dynamicProps":false,"dynamicItems":false};

export const createMcpToken = validate38;
const schema54 = {"$id":"response-createMcpToken","type":"object","required":["id","token","allow","expiresAt","readOnly"],"properties":{"id":{"type":"string"},"token":{"type":"string"},"allow":{"type":"array","items":{"type":"string"}},"expiresAt":{"type":["string","null"]},"binding":{"$ref":"engine.json#/components/schemas/Binding"},"readOnly":{"type":"boolean"}}};

function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-createMcpToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate38.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.token === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "token"},message:"must have required property '"+"token"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.allow === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "allow"},message:"must have required property '"+"allow"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.expiresAt === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.readOnly === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "readOnly"},message:"must have required property '"+"readOnly"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err5 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.token !== undefined){
if(typeof data.token !== "string"){
const err6 = {instancePath:instancePath+"/token",schemaPath:"#/properties/token/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.allow !== undefined){
let data2 = data.allow;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
if(typeof data2[i0] !== "string"){
const err7 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/allow",schemaPath:"#/properties/allow/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data4 = data.expiresAt;
if((typeof data4 !== "string") && (data4 !== null)){
const err9 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema54.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.binding !== undefined){
let data5 = data.binding;
if((!(data5 && typeof data5 == "object" && !Array.isArray(data5))) && (data5 !== null)){
const err10 = {instancePath:instancePath+"/binding",schemaPath:"engine.json#/components/schemas/Binding/type",keyword:"type",params:{type: schema53.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.endUserRef !== undefined){
let data6 = data5.endUserRef;
if(typeof data6 === "string"){
if(func1(data6) > 200){
const err11 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(func1(data6) < 1){
const err12 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!pattern4.test(data6)){
const err13 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data5.authName !== undefined){
let data7 = data5.authName;
if(typeof data7 === "string"){
if(func1(data7) > 64){
const err15 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(func1(data7) < 1){
const err16 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(!pattern4.test(data7)){
const err17 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data5.resourceId !== undefined){
let data8 = data5.resourceId;
if(typeof data8 === "string"){
if(func1(data8) > 200){
const err19 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(func1(data8) < 1){
const err20 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!pattern4.test(data8)){
const err21 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
}
if(data.readOnly !== undefined){
if(typeof data.readOnly !== "boolean"){
const err23 = {instancePath:instancePath+"/readOnly",schemaPath:"#/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate38.errors = vErrors;
return errors === 0;
}
validate38.evaluated = {"props":{"id":true,"token":true,"allow":true,"expiresAt":true,"binding":true,"readOnly":true},"dynamicProps":false,"dynamicItems":false};

export const listMcpApprovals = validate39;
const schema56 = {"$id":"response-listMcpApprovals","type":"object","required":["approvals"],"properties":{"approvals":{"type":"array","items":{"$ref":"engine.json#/components/schemas/McpApproval"}}}};
const schema57 = {"type":"object","required":["id","server","versionId","operation","params","createdAt","expiresAt","approvedAt","approvedBy","usedAt"],"properties":{"id":{"type":"string"},"server":{"type":"string","description":"The MCP server name."},"versionId":{"type":"string"},"operation":{"type":"string"},"params":{"type":"object","description":"A summary of the call's params: their shape, values shortened; never a secret."},"createdAt":{"type":"string"},"expiresAt":{"type":"string","description":"The re-run must come before this."},"approvedAt":{"type":["string","null"]},"approvedBy":{"type":["string","null"]},"usedAt":{"type":["string","null"]}}};

function validate39(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listMcpApprovals" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate39.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.approvals === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "approvals"},message:"must have required property '"+"approvals"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.approvals !== undefined){
let data0 = data.approvals;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.id === undefined){
const err1 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.server === undefined){
const err2 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "server"},message:"must have required property '"+"server"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.versionId === undefined){
const err3 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.operation === undefined){
const err4 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "operation"},message:"must have required property '"+"operation"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.params === undefined){
const err5 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "params"},message:"must have required property '"+"params"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.createdAt === undefined){
const err6 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.expiresAt === undefined){
const err7 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data1.approvedAt === undefined){
const err8 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "approvedAt"},message:"must have required property '"+"approvedAt"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data1.approvedBy === undefined){
const err9 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "approvedBy"},message:"must have required property '"+"approvedBy"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data1.usedAt === undefined){
const err10 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "usedAt"},message:"must have required property '"+"usedAt"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data1.id !== undefined){
if(typeof data1.id !== "string"){
const err11 = {instancePath:instancePath+"/approvals/" + i0+"/id",schemaPath:"engine.json#/components/schemas/McpApproval/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.server !== undefined){
if(typeof data1.server !== "string"){
const err12 = {instancePath:instancePath+"/approvals/" + i0+"/server",schemaPath:"engine.json#/components/schemas/McpApproval/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data1.versionId !== undefined){
if(typeof data1.versionId !== "string"){
const err13 = {instancePath:instancePath+"/approvals/" + i0+"/versionId",schemaPath:"engine.json#/components/schemas/McpApproval/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.operation !== undefined){
if(typeof data1.operation !== "string"){
const err14 = {instancePath:instancePath+"/approvals/" + i0+"/operation",schemaPath:"engine.json#/components/schemas/McpApproval/properties/operation/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data1.params !== undefined){
let data6 = data1.params;
if(!(data6 && typeof data6 == "object" && !Array.isArray(data6))){
const err15 = {instancePath:instancePath+"/approvals/" + i0+"/params",schemaPath:"engine.json#/components/schemas/McpApproval/properties/params/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data1.createdAt !== undefined){
if(typeof data1.createdAt !== "string"){
const err16 = {instancePath:instancePath+"/approvals/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data1.expiresAt !== undefined){
if(typeof data1.expiresAt !== "string"){
const err17 = {instancePath:instancePath+"/approvals/" + i0+"/expiresAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/expiresAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data1.approvedAt !== undefined){
let data9 = data1.approvedAt;
if((typeof data9 !== "string") && (data9 !== null)){
const err18 = {instancePath:instancePath+"/approvals/" + i0+"/approvedAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/approvedAt/type",keyword:"type",params:{type: schema57.properties.approvedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data1.approvedBy !== undefined){
let data10 = data1.approvedBy;
if((typeof data10 !== "string") && (data10 !== null)){
const err19 = {instancePath:instancePath+"/approvals/" + i0+"/approvedBy",schemaPath:"engine.json#/components/schemas/McpApproval/properties/approvedBy/type",keyword:"type",params:{type: schema57.properties.approvedBy.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data1.usedAt !== undefined){
let data11 = data1.usedAt;
if((typeof data11 !== "string") && (data11 !== null)){
const err20 = {instancePath:instancePath+"/approvals/" + i0+"/usedAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/usedAt/type",keyword:"type",params:{type: schema57.properties.usedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/approvals/" + i0,schemaPath:"engine.json#/components/schemas/McpApproval/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/approvals",schemaPath:"#/properties/approvals/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
validate39.errors = vErrors;
return errors === 0;
}
validate39.evaluated = {"props":{"approvals":true},"dynamicProps":false,"dynamicItems":false};

export const approveMcpCall = validate40;
const schema58 = {"$id":"response-approveMcpCall","$ref":"engine.json#/components/schemas/McpApproval"};

function validate40(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-approveMcpCall" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate40.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.server === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "server"},message:"must have required property '"+"server"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.versionId === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.operation === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "operation"},message:"must have required property '"+"operation"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.params === undefined){
const err4 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "params"},message:"must have required property '"+"params"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.createdAt === undefined){
const err5 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.expiresAt === undefined){
const err6 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data.approvedAt === undefined){
const err7 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "approvedAt"},message:"must have required property '"+"approvedAt"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data.approvedBy === undefined){
const err8 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "approvedBy"},message:"must have required property '"+"approvedBy"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data.usedAt === undefined){
const err9 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/required",keyword:"required",params:{missingProperty: "usedAt"},message:"must have required property '"+"usedAt"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err10 = {instancePath:instancePath+"/id",schemaPath:"engine.json#/components/schemas/McpApproval/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.server !== undefined){
if(typeof data.server !== "string"){
const err11 = {instancePath:instancePath+"/server",schemaPath:"engine.json#/components/schemas/McpApproval/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.versionId !== undefined){
if(typeof data.versionId !== "string"){
const err12 = {instancePath:instancePath+"/versionId",schemaPath:"engine.json#/components/schemas/McpApproval/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.operation !== undefined){
if(typeof data.operation !== "string"){
const err13 = {instancePath:instancePath+"/operation",schemaPath:"engine.json#/components/schemas/McpApproval/properties/operation/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.params !== undefined){
let data4 = data.params;
if(!(data4 && typeof data4 == "object" && !Array.isArray(data4))){
const err14 = {instancePath:instancePath+"/params",schemaPath:"engine.json#/components/schemas/McpApproval/properties/params/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.createdAt !== undefined){
if(typeof data.createdAt !== "string"){
const err15 = {instancePath:instancePath+"/createdAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.expiresAt !== undefined){
if(typeof data.expiresAt !== "string"){
const err16 = {instancePath:instancePath+"/expiresAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/expiresAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.approvedAt !== undefined){
let data7 = data.approvedAt;
if((typeof data7 !== "string") && (data7 !== null)){
const err17 = {instancePath:instancePath+"/approvedAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/approvedAt/type",keyword:"type",params:{type: schema57.properties.approvedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.approvedBy !== undefined){
let data8 = data.approvedBy;
if((typeof data8 !== "string") && (data8 !== null)){
const err18 = {instancePath:instancePath+"/approvedBy",schemaPath:"engine.json#/components/schemas/McpApproval/properties/approvedBy/type",keyword:"type",params:{type: schema57.properties.approvedBy.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.usedAt !== undefined){
let data9 = data.usedAt;
if((typeof data9 !== "string") && (data9 !== null)){
const err19 = {instancePath:instancePath+"/usedAt",schemaPath:"engine.json#/components/schemas/McpApproval/properties/usedAt/type",keyword:"type",params:{type: schema57.properties.usedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"engine.json#/components/schemas/McpApproval/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate40.errors = vErrors;
return errors === 0;
}
validate40.evaluated = {"props":{"id":true,"server":true,"versionId":true,"operation":true,"params":true,"createdAt":true,"expiresAt":true,"approvedAt":true,"approvedBy":true,"usedAt":true},"dynamicProps":false,"dynamicItems":false};

export const listConnections = validate41;
const schema60 = {"$id":"response-listConnections","type":"object","required":["connections"],"properties":{"connections":{"type":"array","items":{"$ref":"engine.json#/components/schemas/Connection"}}}};
const schema61 = {"type":"object","required":["id","service","endUserRef","authName","status","createdAt","consentedAt"],"properties":{"id":{"type":"string"},"service":{"type":"string"},"endUserRef":{"type":"string"},"authName":{"type":"string"},"status":{"enum":["active","needs_reauth"]},"accessExpiresAt":{"type":["string","null"]},"createdAt":{"type":"string"},"updatedAt":{"type":"string","description":"The last change of any kind, a token refresh included."},"consentedAt":{"type":"string","description":"When the end user last completed the provider's consent for this connection. Only a\ncompleted consent changes it, never a token refresh (a connection made before the Engine\nrecorded it shows its createdAt).\n"}}};

function validate41(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listConnections" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate41.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.connections === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "connections"},message:"must have required property '"+"connections"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.connections !== undefined){
let data0 = data.connections;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.id === undefined){
const err1 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.service === undefined){
const err2 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "service"},message:"must have required property '"+"service"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.endUserRef === undefined){
const err3 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "endUserRef"},message:"must have required property '"+"endUserRef"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.authName === undefined){
const err4 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "authName"},message:"must have required property '"+"authName"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.status === undefined){
const err5 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.createdAt === undefined){
const err6 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.consentedAt === undefined){
const err7 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "consentedAt"},message:"must have required property '"+"consentedAt"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data1.id !== undefined){
if(typeof data1.id !== "string"){
const err8 = {instancePath:instancePath+"/connections/" + i0+"/id",schemaPath:"engine.json#/components/schemas/Connection/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.service !== undefined){
if(typeof data1.service !== "string"){
const err9 = {instancePath:instancePath+"/connections/" + i0+"/service",schemaPath:"engine.json#/components/schemas/Connection/properties/service/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.endUserRef !== undefined){
if(typeof data1.endUserRef !== "string"){
const err10 = {instancePath:instancePath+"/connections/" + i0+"/endUserRef",schemaPath:"engine.json#/components/schemas/Connection/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data1.authName !== undefined){
if(typeof data1.authName !== "string"){
const err11 = {instancePath:instancePath+"/connections/" + i0+"/authName",schemaPath:"engine.json#/components/schemas/Connection/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.status !== undefined){
let data6 = data1.status;
if(!((data6 === "active") || (data6 === "needs_reauth"))){
const err12 = {instancePath:instancePath+"/connections/" + i0+"/status",schemaPath:"engine.json#/components/schemas/Connection/properties/status/enum",keyword:"enum",params:{allowedValues: schema61.properties.status.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data1.accessExpiresAt !== undefined){
let data7 = data1.accessExpiresAt;
if((typeof data7 !== "string") && (data7 !== null)){
const err13 = {instancePath:instancePath+"/connections/" + i0+"/accessExpiresAt",schemaPath:"engine.json#/components/schemas/Connection/properties/accessExpiresAt/type",keyword:"type",params:{type: schema61.properties.accessExpiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.createdAt !== undefined){
if(typeof data1.createdAt !== "string"){
const err14 = {instancePath:instancePath+"/connections/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/Connection/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data1.updatedAt !== undefined){
if(typeof data1.updatedAt !== "string"){
const err15 = {instancePath:instancePath+"/connections/" + i0+"/updatedAt",schemaPath:"engine.json#/components/schemas/Connection/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data1.consentedAt !== undefined){
if(typeof data1.consentedAt !== "string"){
const err16 = {instancePath:instancePath+"/connections/" + i0+"/consentedAt",schemaPath:"engine.json#/components/schemas/Connection/properties/consentedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/connections/" + i0,schemaPath:"engine.json#/components/schemas/Connection/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/connections",schemaPath:"#/properties/connections/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
validate41.errors = vErrors;
return errors === 0;
}
validate41.evaluated = {"props":{"connections":true},"dynamicProps":false,"dynamicItems":false};

export const createConnection = validate42;
const schema62 = {"$id":"response-createConnection","type":"object","required":["authorizeUrl","expiresAt"],"properties":{"authorizeUrl":{"type":"string"},"expiresAt":{"type":"string","format":"date-time"}}};

function validate42(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-createConnection" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate42.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.authorizeUrl === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "authorizeUrl"},message:"must have required property '"+"authorizeUrl"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.expiresAt === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.authorizeUrl !== undefined){
if(typeof data.authorizeUrl !== "string"){
const err2 = {instancePath:instancePath+"/authorizeUrl",schemaPath:"#/properties/authorizeUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data1 = data.expiresAt;
if(typeof data1 === "string"){
if(!(formats0.validate(data1))){
const err3 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate42.errors = vErrors;
return errors === 0;
}
validate42.evaluated = {"props":{"authorizeUrl":true,"expiresAt":true},"dynamicProps":false,"dynamicItems":false};

export const deleteConnection = validate43;
const schema63 = {"$id":"response-deleteConnection","type":"object","required":["connection","revocation"],"properties":{"connection":{"$ref":"engine.json#/components/schemas/Connection"},"revocation":{"$ref":"engine.json#/components/schemas/ConnectionRevocation"}}};
const schema65 = {"type":"object","description":"Whether the provider confirmed revoking a deleted connection's grant (RFC 7009). When it did\nnot, `reason` says why and `message` says it in words (never with a token or secret in it):\n`not_supported`, the service declares no revocation endpoint (revoke the grant in the\nprovider's settings); `not_attempted`, the Engine did not send the request (the service is no\nlonger enabled, its OAuth client was deleted, or the service is now reached somewhere other\nthan where the tokens were issued); `unreachable`, the endpoint did not answer within the token\nrequest timeout; `refused`, it answered an error (its RFC 6749 error code or HTTP status).\n","required":["revoked"],"properties":{"revoked":{"type":"boolean"},"reason":{"enum":["not_supported","not_attempted","unreachable","refused"]},"message":{"type":"string"}}};

function validate43(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-deleteConnection" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate43.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.connection === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "connection"},message:"must have required property '"+"connection"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.revocation === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revocation"},message:"must have required property '"+"revocation"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.connection !== undefined){
let data0 = data.connection;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.id === undefined){
const err2 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data0.service === undefined){
const err3 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "service"},message:"must have required property '"+"service"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data0.endUserRef === undefined){
const err4 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "endUserRef"},message:"must have required property '"+"endUserRef"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data0.authName === undefined){
const err5 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "authName"},message:"must have required property '"+"authName"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data0.status === undefined){
const err6 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data0.createdAt === undefined){
const err7 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data0.consentedAt === undefined){
const err8 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/required",keyword:"required",params:{missingProperty: "consentedAt"},message:"must have required property '"+"consentedAt"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data0.id !== undefined){
if(typeof data0.id !== "string"){
const err9 = {instancePath:instancePath+"/connection/id",schemaPath:"engine.json#/components/schemas/Connection/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data0.service !== undefined){
if(typeof data0.service !== "string"){
const err10 = {instancePath:instancePath+"/connection/service",schemaPath:"engine.json#/components/schemas/Connection/properties/service/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data0.endUserRef !== undefined){
if(typeof data0.endUserRef !== "string"){
const err11 = {instancePath:instancePath+"/connection/endUserRef",schemaPath:"engine.json#/components/schemas/Connection/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data0.authName !== undefined){
if(typeof data0.authName !== "string"){
const err12 = {instancePath:instancePath+"/connection/authName",schemaPath:"engine.json#/components/schemas/Connection/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data0.status !== undefined){
let data5 = data0.status;
if(!((data5 === "active") || (data5 === "needs_reauth"))){
const err13 = {instancePath:instancePath+"/connection/status",schemaPath:"engine.json#/components/schemas/Connection/properties/status/enum",keyword:"enum",params:{allowedValues: schema61.properties.status.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data0.accessExpiresAt !== undefined){
let data6 = data0.accessExpiresAt;
if((typeof data6 !== "string") && (data6 !== null)){
const err14 = {instancePath:instancePath+"/connection/accessExpiresAt",schemaPath:"engine.json#/components/schemas/Connection/properties/accessExpiresAt/type",keyword:"type",params:{type: schema61.properties.accessExpiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data0.createdAt !== undefined){
if(typeof data0.createdAt !== "string"){
const err15 = {instancePath:instancePath+"/connection/createdAt",schemaPath:"engine.json#/components/schemas/Connection/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data0.updatedAt !== undefined){
if(typeof data0.updatedAt !== "string"){
const err16 = {instancePath:instancePath+"/connection/updatedAt",schemaPath:"engine.json#/components/schemas/Connection/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data0.consentedAt !== undefined){
if(typeof data0.consentedAt !== "string"){
const err17 = {instancePath:instancePath+"/connection/consentedAt",schemaPath:"engine.json#/components/schemas/Connection/properties/consentedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/connection",schemaPath:"engine.json#/components/schemas/Connection/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.revocation !== undefined){
let data10 = data.revocation;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.revoked === undefined){
const err19 = {instancePath:instancePath+"/revocation",schemaPath:"engine.json#/components/schemas/ConnectionRevocation/required",keyword:"required",params:{missingProperty: "revoked"},message:"must have required property '"+"revoked"+"'"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data10.revoked !== undefined){
if(typeof data10.revoked !== "boolean"){
const err20 = {instancePath:instancePath+"/revocation/revoked",schemaPath:"engine.json#/components/schemas/ConnectionRevocation/properties/revoked/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data10.reason !== undefined){
let data12 = data10.reason;
if(!((((data12 === "not_supported") || (data12 === "not_attempted")) || (data12 === "unreachable")) || (data12 === "refused"))){
const err21 = {instancePath:instancePath+"/revocation/reason",schemaPath:"engine.json#/components/schemas/ConnectionRevocation/properties/reason/enum",keyword:"enum",params:{allowedValues: schema65.properties.reason.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data10.message !== undefined){
if(typeof data10.message !== "string"){
const err22 = {instancePath:instancePath+"/revocation/message",schemaPath:"engine.json#/components/schemas/ConnectionRevocation/properties/message/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/revocation",schemaPath:"engine.json#/components/schemas/ConnectionRevocation/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate43.errors = vErrors;
return errors === 0;
}
validate43.evaluated = {"props":{"connection":true,"revocation":true},"dynamicProps":false,"dynamicItems":false};

export const listCatalogServices = validate44;
const schema66 = {"$id":"response-listCatalogServices","type":"object","required":["services"],"properties":{"services":{"type":"array","items":{"$ref":"engine.json#/components/schemas/CatalogService"}}}};
const schema67 = {"type":"object","required":["name","versions"],"properties":{"name":{"type":"string"},"title":{"type":"string"},"versions":{"type":"array","items":{"type":"object","required":["version","operations","source"],"properties":{"version":{"type":"string"},"operations":{"type":"integer"},"source":{"enum":["catalog","imported"]},"baseUrl":{"type":"string"},"omitted":{"type":"array","description":"Import answers only; operations of the description the Engine cannot send as described, and why.","items":{"type":"object","required":["operationId","field","reason"],"properties":{"operationId":{"type":"string"},"field":{"type":"string"},"reason":{"type":"string"}}}},"warnings":{"type":"array","description":"Import answers only; what was imported but cannot be read as described: a `$ref` of a response schema that names nothing or closes a cycle (no call checks an answer against it; typed packages type that value as unknown and search_docs shows the `$ref` as written).","items":{"type":"object","required":["operationId","field","reason"],"properties":{"operationId":{"type":"string"},"field":{"type":"string"},"reason":{"type":"string"}}}}}}}}};

function validate44(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listCatalogServices" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate44.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.services === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services !== undefined){
let data0 = data.services;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err1 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.versions === undefined){
const err2 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/required",keyword:"required",params:{missingProperty: "versions"},message:"must have required property '"+"versions"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err3 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/CatalogService/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data1.title !== undefined){
if(typeof data1.title !== "string"){
const err4 = {instancePath:instancePath+"/services/" + i0+"/title",schemaPath:"engine.json#/components/schemas/CatalogService/properties/title/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data1.versions !== undefined){
let data4 = data1.versions;
if(Array.isArray(data4)){
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.version === undefined){
const err5 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data5.operations === undefined){
const err6 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data5.source === undefined){
const err7 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "source"},message:"must have required property '"+"source"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data5.version !== undefined){
if(typeof data5.version !== "string"){
const err8 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/version",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data5.operations !== undefined){
let data7 = data5.operations;
if(!((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7)))){
const err9 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/operations",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/operations/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data5.source !== undefined){
let data8 = data5.source;
if(!((data8 === "catalog") || (data8 === "imported"))){
const err10 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/source",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/source/enum",keyword:"enum",params:{allowedValues: schema67.properties.versions.items.properties.source.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data5.baseUrl !== undefined){
if(typeof data5.baseUrl !== "string"){
const err11 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/baseUrl",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/baseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data5.omitted !== undefined){
let data10 = data5.omitted;
if(Array.isArray(data10)){
const len2 = data10.length;
for(let i2=0; i2<len2; i2++){
let data11 = data10[i2];
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
if(data11.operationId === undefined){
const err12 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "operationId"},message:"must have required property '"+"operationId"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data11.field === undefined){
const err13 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "field"},message:"must have required property '"+"field"+"'"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data11.reason === undefined){
const err14 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data11.operationId !== undefined){
if(typeof data11.operationId !== "string"){
const err15 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2+"/operationId",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/operationId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data11.field !== undefined){
if(typeof data11.field !== "string"){
const err16 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2+"/field",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/field/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data11.reason !== undefined){
if(typeof data11.reason !== "string"){
const err17 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2+"/reason",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/omitted",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data5.warnings !== undefined){
let data15 = data5.warnings;
if(Array.isArray(data15)){
const len3 = data15.length;
for(let i3=0; i3<len3; i3++){
let data16 = data15[i3];
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
if(data16.operationId === undefined){
const err20 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "operationId"},message:"must have required property '"+"operationId"+"'"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data16.field === undefined){
const err21 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "field"},message:"must have required property '"+"field"+"'"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(data16.reason === undefined){
const err22 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if(data16.operationId !== undefined){
if(typeof data16.operationId !== "string"){
const err23 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3+"/operationId",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/operationId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data16.field !== undefined){
if(typeof data16.field !== "string"){
const err24 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3+"/field",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/field/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data16.reason !== undefined){
if(typeof data16.reason !== "string"){
const err25 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3+"/reason",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings/" + i3,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1+"/warnings",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/services/" + i0+"/versions/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
else {
const err29 = {instancePath:instancePath+"/services/" + i0+"/versions",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
}
else {
const err30 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
validate44.errors = vErrors;
return errors === 0;
}
validate44.evaluated = {"props":{"services":true},"dynamicProps":false,"dynamicItems":false};

export const listWorkspaceServices = validate45;
const schema68 = {"$id":"response-listWorkspaceServices","$ref":"engine.json#/components/schemas/WorkspaceState"};
const schema69 = {"type":"object","required":["services","revision"],"properties":{"services":{"type":"array","items":{"$ref":"engine.json#/components/schemas/WorkspaceService"}},"revision":{"$ref":"engine.json#/components/schemas/WorkspaceRevision"}}};
const schema70 = {"type":"object","required":["name","version","baseUrl","enabledAt"],"properties":{"name":{"type":"string"},"version":{"type":"string"},"baseUrl":{"type":"string"},"baseUrlOverridden":{"type":"boolean"},"enabledAt":{"type":"string","format":"date-time"}}};
const schema71 = {"description":"What the enabled services are, as one opaque value; it changes with every change to them.","type":"string","pattern":"^wsr_[A-Za-z0-9_-]{22}$"};
const pattern10 = new RegExp("^wsr_[A-Za-z0-9_-]{22}$", "u");

function validate46(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate46.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.services === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.revision === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revision"},message:"must have required property '"+"revision"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.services !== undefined){
let data0 = data.services;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err2 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.version === undefined){
const err3 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.baseUrl === undefined){
const err4 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "baseUrl"},message:"must have required property '"+"baseUrl"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.enabledAt === undefined){
const err5 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "enabledAt"},message:"must have required property '"+"enabledAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err6 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data1.version !== undefined){
if(typeof data1.version !== "string"){
const err7 = {instancePath:instancePath+"/services/" + i0+"/version",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.baseUrl !== undefined){
if(typeof data1.baseUrl !== "string"){
const err8 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.baseUrlOverridden !== undefined){
if(typeof data1.baseUrlOverridden !== "boolean"){
const err9 = {instancePath:instancePath+"/services/" + i0+"/baseUrlOverridden",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrlOverridden/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.enabledAt !== undefined){
let data6 = data1.enabledAt;
if(typeof data6 === "string"){
if(!(formats0.validate(data6))){
const err10 = {instancePath:instancePath+"/services/" + i0+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/services/" + i0+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.revision !== undefined){
let data7 = data.revision;
if(typeof data7 === "string"){
if(!pattern10.test(data7)){
const err14 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/pattern",keyword:"pattern",params:{pattern: "^wsr_[A-Za-z0-9_-]{22}$"},message:"must match pattern \""+"^wsr_[A-Za-z0-9_-]{22}$"+"\""};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
validate46.errors = vErrors;
return errors === 0;
}
validate46.evaluated = {"props":{"services":true,"revision":true},"dynamicProps":false,"dynamicItems":false};


function validate45(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listWorkspaceServices" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate45.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate46(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate46.errors : vErrors.concat(validate46.errors);
errors = vErrors.length;
}
validate45.errors = vErrors;
return errors === 0;
}
validate45.evaluated = {"props":{"services":true,"revision":true},"dynamicProps":false,"dynamicItems":false};

export const applyWorkspace = validate48;
const schema72 = {"$id":"response-applyWorkspace","$ref":"engine.json#/components/schemas/WorkspaceState"};

function validate49(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate49.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.services === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.revision === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "revision"},message:"must have required property '"+"revision"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.services !== undefined){
let data0 = data.services;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err2 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.version === undefined){
const err3 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.baseUrl === undefined){
const err4 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "baseUrl"},message:"must have required property '"+"baseUrl"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.enabledAt === undefined){
const err5 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "enabledAt"},message:"must have required property '"+"enabledAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err6 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data1.version !== undefined){
if(typeof data1.version !== "string"){
const err7 = {instancePath:instancePath+"/services/" + i0+"/version",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.baseUrl !== undefined){
if(typeof data1.baseUrl !== "string"){
const err8 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.baseUrlOverridden !== undefined){
if(typeof data1.baseUrlOverridden !== "boolean"){
const err9 = {instancePath:instancePath+"/services/" + i0+"/baseUrlOverridden",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrlOverridden/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.enabledAt !== undefined){
let data6 = data1.enabledAt;
if(typeof data6 === "string"){
if(!(formats0.validate(data6))){
const err10 = {instancePath:instancePath+"/services/" + i0+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/services/" + i0+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/WorkspaceService/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.revision !== undefined){
let data7 = data.revision;
if(typeof data7 === "string"){
if(!pattern10.test(data7)){
const err14 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/pattern",keyword:"pattern",params:{pattern: "^wsr_[A-Za-z0-9_-]{22}$"},message:"must match pattern \""+"^wsr_[A-Za-z0-9_-]{22}$"+"\""};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
validate49.errors = vErrors;
return errors === 0;
}
validate49.evaluated = {"props":{"services":true,"revision":true},"dynamicProps":false,"dynamicItems":false};


function validate48(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-applyWorkspace" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate48.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate49(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate49.errors : vErrors.concat(validate49.errors);
errors = vErrors.length;
}
validate48.errors = vErrors;
return errors === 0;
}
validate48.evaluated = {"props":{"services":true,"revision":true},"dynamicProps":false,"dynamicItems":false};

export const enableWorkspaceService = validate51;
const schema76 = {"$id":"response-enableWorkspaceService","$ref":"engine.json#/components/schemas/WorkspaceService"};

function validate51(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-enableWorkspaceService" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate51.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.version === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.baseUrl === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "baseUrl"},message:"must have required property '"+"baseUrl"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.enabledAt === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/WorkspaceService/required",keyword:"required",params:{missingProperty: "enabledAt"},message:"must have required property '"+"enabledAt"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.version !== undefined){
if(typeof data.version !== "string"){
const err5 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.baseUrl !== undefined){
if(typeof data.baseUrl !== "string"){
const err6 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.baseUrlOverridden !== undefined){
if(typeof data.baseUrlOverridden !== "boolean"){
const err7 = {instancePath:instancePath+"/baseUrlOverridden",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/baseUrlOverridden/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.enabledAt !== undefined){
let data4 = data.enabledAt;
if(typeof data4 === "string"){
if(!(formats0.validate(data4))){
const err8 = {instancePath:instancePath+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/enabledAt",schemaPath:"engine.json#/components/schemas/WorkspaceService/properties/enabledAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"engine.json#/components/schemas/WorkspaceService/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate51.errors = vErrors;
return errors === 0;
}
validate51.evaluated = {"props":{"name":true,"version":true,"baseUrl":true,"baseUrlOverridden":true,"enabledAt":true},"dynamicProps":false,"dynamicItems":false};

export const importWorkspaceService = validate52;
const schema78 = {"$id":"response-importWorkspaceService","$ref":"engine.json#/components/schemas/CatalogService"};

function validate52(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-importWorkspaceService" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate52.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/CatalogService/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.versions === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/CatalogService/required",keyword:"required",params:{missingProperty: "versions"},message:"must have required property '"+"versions"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err2 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/CatalogService/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.title !== undefined){
if(typeof data.title !== "string"){
const err3 = {instancePath:instancePath+"/title",schemaPath:"engine.json#/components/schemas/CatalogService/properties/title/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.versions !== undefined){
let data2 = data.versions;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.version === undefined){
const err4 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data3.operations === undefined){
const err5 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data3.source === undefined){
const err6 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/required",keyword:"required",params:{missingProperty: "source"},message:"must have required property '"+"source"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data3.version !== undefined){
if(typeof data3.version !== "string"){
const err7 = {instancePath:instancePath+"/versions/" + i0+"/version",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data3.operations !== undefined){
let data5 = data3.operations;
if(!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))){
const err8 = {instancePath:instancePath+"/versions/" + i0+"/operations",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/operations/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data3.source !== undefined){
let data6 = data3.source;
if(!((data6 === "catalog") || (data6 === "imported"))){
const err9 = {instancePath:instancePath+"/versions/" + i0+"/source",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/source/enum",keyword:"enum",params:{allowedValues: schema67.properties.versions.items.properties.source.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data3.baseUrl !== undefined){
if(typeof data3.baseUrl !== "string"){
const err10 = {instancePath:instancePath+"/versions/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/baseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data3.omitted !== undefined){
let data8 = data3.omitted;
if(Array.isArray(data8)){
const len1 = data8.length;
for(let i1=0; i1<len1; i1++){
let data9 = data8[i1];
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.operationId === undefined){
const err11 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "operationId"},message:"must have required property '"+"operationId"+"'"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data9.field === undefined){
const err12 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "field"},message:"must have required property '"+"field"+"'"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data9.reason === undefined){
const err13 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data9.operationId !== undefined){
if(typeof data9.operationId !== "string"){
const err14 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1+"/operationId",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/operationId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data9.field !== undefined){
if(typeof data9.field !== "string"){
const err15 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1+"/field",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/field/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data9.reason !== undefined){
if(typeof data9.reason !== "string"){
const err16 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1+"/reason",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/versions/" + i0+"/omitted/" + i1,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/versions/" + i0+"/omitted",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/omitted/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data3.warnings !== undefined){
let data13 = data3.warnings;
if(Array.isArray(data13)){
const len2 = data13.length;
for(let i2=0; i2<len2; i2++){
let data14 = data13[i2];
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.operationId === undefined){
const err19 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "operationId"},message:"must have required property '"+"operationId"+"'"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data14.field === undefined){
const err20 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "field"},message:"must have required property '"+"field"+"'"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data14.reason === undefined){
const err21 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(data14.operationId !== undefined){
if(typeof data14.operationId !== "string"){
const err22 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2+"/operationId",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/operationId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data14.field !== undefined){
if(typeof data14.field !== "string"){
const err23 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2+"/field",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/field/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data14.reason !== undefined){
if(typeof data14.reason !== "string"){
const err24 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2+"/reason",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
else {
const err25 = {instancePath:instancePath+"/versions/" + i0+"/warnings/" + i2,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/versions/" + i0+"/warnings",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/properties/warnings/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/versions",schemaPath:"engine.json#/components/schemas/CatalogService/properties/versions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
else {
const err29 = {instancePath,schemaPath:"engine.json#/components/schemas/CatalogService/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
validate52.errors = vErrors;
return errors === 0;
}
validate52.evaluated = {"props":{"name":true,"title":true,"versions":true},"dynamicProps":false,"dynamicItems":false};

export const listBuckets = validate53;
const schema80 = {"$id":"response-listBuckets","type":"object","required":["buckets"],"properties":{"buckets":{"type":"array","items":{"$ref":"engine.json#/components/schemas/Bucket"}}}};
const schema81 = {"type":"object","required":["name","secrets"],"properties":{"name":{"type":"string"},"secrets":{"type":"array","items":{"type":"object","required":["service","origin","updatedAt"],"properties":{"service":{"type":"string"},"origin":{"type":["string","null"],"description":"The only origin (scheme://host:port) the secret is sent to: where its service was reached when it was set. Null when the Engine cannot tell (stored before origins were bound and not yet bound by a restart, or a record that does not open)."},"updatedAt":{"type":"string","format":"date-time"}}}}}};

function validate53(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listBuckets" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate53.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.buckets === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "buckets"},message:"must have required property '"+"buckets"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.buckets !== undefined){
let data0 = data.buckets;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err1 = {instancePath:instancePath+"/buckets/" + i0,schemaPath:"engine.json#/components/schemas/Bucket/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.secrets === undefined){
const err2 = {instancePath:instancePath+"/buckets/" + i0,schemaPath:"engine.json#/components/schemas/Bucket/required",keyword:"required",params:{missingProperty: "secrets"},message:"must have required property '"+"secrets"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err3 = {instancePath:instancePath+"/buckets/" + i0+"/name",schemaPath:"engine.json#/components/schemas/Bucket/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data1.secrets !== undefined){
let data3 = data1.secrets;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.service === undefined){
const err4 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1,schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/required",keyword:"required",params:{missingProperty: "service"},message:"must have required property '"+"service"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data4.origin === undefined){
const err5 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1,schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/required",keyword:"required",params:{missingProperty: "origin"},message:"must have required property '"+"origin"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data4.updatedAt === undefined){
const err6 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1,schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/required",keyword:"required",params:{missingProperty: "updatedAt"},message:"must have required property '"+"updatedAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data4.service !== undefined){
if(typeof data4.service !== "string"){
const err7 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1+"/service",schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/properties/service/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data4.origin !== undefined){
let data6 = data4.origin;
if((typeof data6 !== "string") && (data6 !== null)){
const err8 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1+"/origin",schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/properties/origin/type",keyword:"type",params:{type: schema81.properties.secrets.items.properties.origin.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data4.updatedAt !== undefined){
let data7 = data4.updatedAt;
if(typeof data7 === "string"){
if(!(formats0.validate(data7))){
const err9 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1+"/updatedAt",schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/properties/updatedAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1+"/updatedAt",schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/properties/updatedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/buckets/" + i0+"/secrets/" + i1,schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/buckets/" + i0+"/secrets",schemaPath:"engine.json#/components/schemas/Bucket/properties/secrets/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/buckets/" + i0,schemaPath:"engine.json#/components/schemas/Bucket/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/buckets",schemaPath:"#/properties/buckets/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate53.errors = vErrors;
return errors === 0;
}
validate53.evaluated = {"props":{"buckets":true},"dynamicProps":false,"dynamicItems":false};

export const listSdks = validate54;
const schema82 = {"$id":"response-listSdks","type":"object","required":["sdks"],"properties":{"sdks":{"type":"array","items":{"$ref":"engine.json#/components/schemas/SdkVersion"}}}};
const schema83 = {"type":"object","required":["name","version","versionId","services","operations","createdAt"],"properties":{"name":{"type":"string"},"version":{"type":"string"},"versionId":{"type":"string"},"services":{"type":"array","items":{"type":"string"}},"operations":{"type":"array","items":{"type":"string"}},"createdAt":{"type":"string","format":"date-time"}}};

function validate54(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listSdks" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate54.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.sdks === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "sdks"},message:"must have required property '"+"sdks"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.sdks !== undefined){
let data0 = data.sdks;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err1 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.version === undefined){
const err2 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.versionId === undefined){
const err3 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.services === undefined){
const err4 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.operations === undefined){
const err5 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.createdAt === undefined){
const err6 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err7 = {instancePath:instancePath+"/sdks/" + i0+"/name",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.version !== undefined){
if(typeof data1.version !== "string"){
const err8 = {instancePath:instancePath+"/sdks/" + i0+"/version",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.versionId !== undefined){
if(typeof data1.versionId !== "string"){
const err9 = {instancePath:instancePath+"/sdks/" + i0+"/versionId",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.services !== undefined){
let data5 = data1.services;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
if(typeof data5[i1] !== "string"){
const err10 = {instancePath:instancePath+"/sdks/" + i0+"/services/" + i1,schemaPath:"engine.json#/components/schemas/SdkVersion/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/sdks/" + i0+"/services",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.operations !== undefined){
let data7 = data1.operations;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
if(typeof data7[i2] !== "string"){
const err12 = {instancePath:instancePath+"/sdks/" + i0+"/operations/" + i2,schemaPath:"engine.json#/components/schemas/SdkVersion/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/sdks/" + i0+"/operations",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.createdAt !== undefined){
let data9 = data1.createdAt;
if(typeof data9 === "string"){
if(!(formats0.validate(data9))){
const err14 = {instancePath:instancePath+"/sdks/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/createdAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/sdks/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/sdks/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/sdks",schemaPath:"#/properties/sdks/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate54.errors = vErrors;
return errors === 0;
}
validate54.evaluated = {"props":{"sdks":true},"dynamicProps":false,"dynamicItems":false};

export const validateSdkDefinition = validate55;
const schema84 = {"$id":"response-validateSdkDefinition","$ref":"engine.json#/components/schemas/ResolvedSdkDefinition"};
const schema85 = {"type":"object","required":["name","services","operations"],"properties":{"name":{"type":"string"},"services":{"type":"array","items":{"type":"object","required":["name","version"],"properties":{"name":{"type":"string"},"version":{"type":"string"}}}},"operations":{"type":"array","description":"Public operation IDs, sorted.","items":{"type":"string"}}}};

function validate55(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-validateSdkDefinition" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate55.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err3 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.name === undefined){
const err4 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/items/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data2.version === undefined){
const err5 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/items/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data2.name !== undefined){
if(typeof data2.name !== "string"){
const err6 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data2.version !== undefined){
if(typeof data2.version !== "string"){
const err7 = {instancePath:instancePath+"/services/" + i0+"/version",schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/items/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath:instancePath+"/services",schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.operations !== undefined){
let data5 = data.operations;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
if(typeof data5[i1] !== "string"){
const err10 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/operations",schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath,schemaPath:"engine.json#/components/schemas/ResolvedSdkDefinition/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate55.errors = vErrors;
return errors === 0;
}
validate55.evaluated = {"props":{"name":true,"services":true,"operations":true},"dynamicProps":false,"dynamicItems":false};

export const planSdk = validate56;
const schema86 = {"$id":"response-planSdk","$ref":"engine.json#/components/schemas/SdkPlan"};

function validate56(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-planSdk" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate56.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.changes === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "changes"},message:"must have required property '"+"changes"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.currentVersion === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "currentVersion"},message:"must have required property '"+"currentVersion"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.nextVersion === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "nextVersion"},message:"must have required property '"+"nextVersion"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.summary === undefined){
const err4 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/required",keyword:"required",params:{missingProperty: "summary"},message:"must have required property '"+"summary"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.currentVersion !== undefined){
let data1 = data.currentVersion;
if((typeof data1 !== "string") && (data1 !== null)){
const err6 = {instancePath:instancePath+"/currentVersion",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/currentVersion/type",keyword:"type",params:{type: schema48.properties.currentVersion.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.nextVersion !== undefined){
let data2 = data.nextVersion;
if((typeof data2 !== "string") && (data2 !== null)){
const err7 = {instancePath:instancePath+"/nextVersion",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/nextVersion/type",keyword:"type",params:{type: schema48.properties.nextVersion.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.changes !== undefined){
let data3 = data.changes;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.action === undefined){
const err8 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "action"},message:"must have required property '"+"action"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data4.kind === undefined){
const err9 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data4.id === undefined){
const err10 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(data4.action !== undefined){
let data5 = data4.action;
if(!(((data5 === "+") || (data5 === "-")) || (data5 === "~"))){
const err11 = {instancePath:instancePath+"/changes/" + i0+"/action",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/action/enum",keyword:"enum",params:{allowedValues: schema48.properties.changes.items.properties.action.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data4.kind !== undefined){
let data6 = data4.kind;
if(!(((data6 === "service") || (data6 === "operation")) || (data6 === "approval"))){
const err12 = {instancePath:instancePath+"/changes/" + i0+"/kind",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/kind/enum",keyword:"enum",params:{allowedValues: schema48.properties.changes.items.properties.kind.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data4.id !== undefined){
if(typeof data4.id !== "string"){
const err13 = {instancePath:instancePath+"/changes/" + i0+"/id",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data4.from !== undefined){
if(typeof data4.from !== "string"){
const err14 = {instancePath:instancePath+"/changes/" + i0+"/from",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/from/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data4.to !== undefined){
if(typeof data4.to !== "string"){
const err15 = {instancePath:instancePath+"/changes/" + i0+"/to",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/properties/to/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/changes/" + i0,schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/changes",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/changes/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.summary !== undefined){
let data10 = data.summary;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.add === undefined){
const err18 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "add"},message:"must have required property '"+"add"+"'"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(data10.remove === undefined){
const err19 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "remove"},message:"must have required property '"+"remove"+"'"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(data10.change === undefined){
const err20 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/required",keyword:"required",params:{missingProperty: "change"},message:"must have required property '"+"change"+"'"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data10.add !== undefined){
let data11 = data10.add;
if(!((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11)))){
const err21 = {instancePath:instancePath+"/summary/add",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/add/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data10.remove !== undefined){
let data12 = data10.remove;
if(!((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12)))){
const err22 = {instancePath:instancePath+"/summary/remove",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/remove/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data10.change !== undefined){
let data13 = data10.change;
if(!((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13)))){
const err23 = {instancePath:instancePath+"/summary/change",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/properties/change/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/summary",schemaPath:"engine.json#/components/schemas/SdkPlan/properties/summary/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
else {
const err25 = {instancePath,schemaPath:"engine.json#/components/schemas/SdkPlan/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
validate56.errors = vErrors;
return errors === 0;
}
validate56.evaluated = {"props":{"name":true,"currentVersion":true,"nextVersion":true,"changes":true,"summary":true},"dynamicProps":false,"dynamicItems":false};

export const publishSdk = validate57;
const schema88 = {"$id":"response-publishSdk","$ref":"engine.json#/components/schemas/PublishResult"};

function validate57(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-publishSdk" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate57.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.version === undefined){
const err1 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.versionId === undefined){
const err2 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.published === undefined){
const err3 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/required",keyword:"required",params:{missingProperty: "published"},message:"must have required property '"+"published"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.name !== undefined){
if(typeof data.name !== "string"){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/PublishResult/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.version !== undefined){
if(typeof data.version !== "string"){
const err5 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/PublishResult/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.versionId !== undefined){
if(typeof data.versionId !== "string"){
const err6 = {instancePath:instancePath+"/versionId",schemaPath:"engine.json#/components/schemas/PublishResult/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.published !== undefined){
if(typeof data.published !== "boolean"){
const err7 = {instancePath:instancePath+"/published",schemaPath:"engine.json#/components/schemas/PublishResult/properties/published/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.token !== undefined){
if(typeof data.token !== "string"){
const err8 = {instancePath:instancePath+"/token",schemaPath:"engine.json#/components/schemas/PublishResult/properties/token/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.url !== undefined){
if(typeof data.url !== "string"){
const err9 = {instancePath:instancePath+"/url",schemaPath:"engine.json#/components/schemas/PublishResult/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"engine.json#/components/schemas/PublishResult/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate57.errors = vErrors;
return errors === 0;
}
validate57.evaluated = {"props":{"name":true,"version":true,"versionId":true,"published":true,"token":true,"url":true},"dynamicProps":false,"dynamicItems":false};

export const listSdkVersions = validate58;
const schema90 = {"$id":"response-listSdkVersions","type":"object","required":["versions"],"properties":{"versions":{"type":"array","items":{"$ref":"engine.json#/components/schemas/SdkVersion"}}}};

function validate58(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listSdkVersions" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate58.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.versions === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "versions"},message:"must have required property '"+"versions"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.versions !== undefined){
let data0 = data.versions;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err1 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.version === undefined){
const err2 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.versionId === undefined){
const err3 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.services === undefined){
const err4 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.operations === undefined){
const err5 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.createdAt === undefined){
const err6 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.name !== undefined){
if(typeof data1.name !== "string"){
const err7 = {instancePath:instancePath+"/versions/" + i0+"/name",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.version !== undefined){
if(typeof data1.version !== "string"){
const err8 = {instancePath:instancePath+"/versions/" + i0+"/version",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/version/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.versionId !== undefined){
if(typeof data1.versionId !== "string"){
const err9 = {instancePath:instancePath+"/versions/" + i0+"/versionId",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.services !== undefined){
let data5 = data1.services;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
if(typeof data5[i1] !== "string"){
const err10 = {instancePath:instancePath+"/versions/" + i0+"/services/" + i1,schemaPath:"engine.json#/components/schemas/SdkVersion/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/versions/" + i0+"/services",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.operations !== undefined){
let data7 = data1.operations;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
if(typeof data7[i2] !== "string"){
const err12 = {instancePath:instancePath+"/versions/" + i0+"/operations/" + i2,schemaPath:"engine.json#/components/schemas/SdkVersion/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/versions/" + i0+"/operations",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data1.createdAt !== undefined){
let data9 = data1.createdAt;
if(typeof data9 === "string"){
if(!(formats0.validate(data9))){
const err14 = {instancePath:instancePath+"/versions/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/createdAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/versions/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/SdkVersion/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/versions/" + i0,schemaPath:"engine.json#/components/schemas/SdkVersion/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/versions",schemaPath:"#/properties/versions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate58.errors = vErrors;
return errors === 0;
}
validate58.evaluated = {"props":{"versions":true},"dynamicProps":false,"dynamicItems":false};

export const listSdkTokens = validate59;
const schema92 = {"$id":"response-listSdkTokens","type":"object","required":["tokens"],"properties":{"tokens":{"type":"array","items":{"$ref":"engine.json#/components/schemas/SdkToken"}}}};
const schema93 = {"type":"object","required":["id","expiresAt","lastUsedAt","revokedAt","createdAt","readOnly"],"properties":{"id":{"type":"string"},"readOnly":{"type":"boolean","description":"The token calls only read-only operations."},"expiresAt":{"type":["string","null"]},"lastUsedAt":{"type":["string","null"]},"revokedAt":{"type":["string","null"]},"createdAt":{"type":"string"}}};

function validate59(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listSdkTokens" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate59.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.tokens === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "tokens"},message:"must have required property '"+"tokens"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.tokens !== undefined){
let data0 = data.tokens;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.id === undefined){
const err1 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data1.expiresAt === undefined){
const err2 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data1.lastUsedAt === undefined){
const err3 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "lastUsedAt"},message:"must have required property '"+"lastUsedAt"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.revokedAt === undefined){
const err4 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "revokedAt"},message:"must have required property '"+"revokedAt"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.createdAt === undefined){
const err5 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "createdAt"},message:"must have required property '"+"createdAt"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1.readOnly === undefined){
const err6 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/required",keyword:"required",params:{missingProperty: "readOnly"},message:"must have required property '"+"readOnly"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.id !== undefined){
if(typeof data1.id !== "string"){
const err7 = {instancePath:instancePath+"/tokens/" + i0+"/id",schemaPath:"engine.json#/components/schemas/SdkToken/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.readOnly !== undefined){
if(typeof data1.readOnly !== "boolean"){
const err8 = {instancePath:instancePath+"/tokens/" + i0+"/readOnly",schemaPath:"engine.json#/components/schemas/SdkToken/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data1.expiresAt !== undefined){
let data4 = data1.expiresAt;
if((typeof data4 !== "string") && (data4 !== null)){
const err9 = {instancePath:instancePath+"/tokens/" + i0+"/expiresAt",schemaPath:"engine.json#/components/schemas/SdkToken/properties/expiresAt/type",keyword:"type",params:{type: schema93.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.lastUsedAt !== undefined){
let data5 = data1.lastUsedAt;
if((typeof data5 !== "string") && (data5 !== null)){
const err10 = {instancePath:instancePath+"/tokens/" + i0+"/lastUsedAt",schemaPath:"engine.json#/components/schemas/SdkToken/properties/lastUsedAt/type",keyword:"type",params:{type: schema93.properties.lastUsedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data1.revokedAt !== undefined){
let data6 = data1.revokedAt;
if((typeof data6 !== "string") && (data6 !== null)){
const err11 = {instancePath:instancePath+"/tokens/" + i0+"/revokedAt",schemaPath:"engine.json#/components/schemas/SdkToken/properties/revokedAt/type",keyword:"type",params:{type: schema93.properties.revokedAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.createdAt !== undefined){
if(typeof data1.createdAt !== "string"){
const err12 = {instancePath:instancePath+"/tokens/" + i0+"/createdAt",schemaPath:"engine.json#/components/schemas/SdkToken/properties/createdAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/tokens/" + i0,schemaPath:"engine.json#/components/schemas/SdkToken/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate59.errors = vErrors;
return errors === 0;
}
validate59.evaluated = {"props":{"tokens":true},"dynamicProps":false,"dynamicItems":false};

export const createSdkToken = validate60;
const schema94 = {"$id":"response-createSdkToken","type":"object","required":["id","token","expiresAt","readOnly"],"properties":{"id":{"type":"string"},"token":{"type":"string"},"expiresAt":{"type":["string","null"]},"readOnly":{"type":"boolean"}}};

function validate60(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-createSdkToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate60.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.token === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "token"},message:"must have required property '"+"token"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.expiresAt === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expiresAt"},message:"must have required property '"+"expiresAt"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.readOnly === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "readOnly"},message:"must have required property '"+"readOnly"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err4 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.token !== undefined){
if(typeof data.token !== "string"){
const err5 = {instancePath:instancePath+"/token",schemaPath:"#/properties/token/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data2 = data.expiresAt;
if((typeof data2 !== "string") && (data2 !== null)){
const err6 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema94.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.readOnly !== undefined){
if(typeof data.readOnly !== "boolean"){
const err7 = {instancePath:instancePath+"/readOnly",schemaPath:"#/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate60.errors = vErrors;
return errors === 0;
}
validate60.evaluated = {"props":{"id":true,"token":true,"expiresAt":true,"readOnly":true},"dynamicProps":false,"dynamicItems":false};

export const listReceipts = validate61;
const schema95 = {"$id":"response-listReceipts","type":"object","required":["receipts","next"],"properties":{"receipts":{"type":"array","items":{"$ref":"engine.json#/components/schemas/Receipt"}},"next":{"type":["string","null"],"description":"Pass as `before` for the next, older page; null when nothing older is left (to search, with `trace_id`)."}}};
const schema96 = {"type":"object","required":["id","versionId","operation","surface","startedAt","providerDurationMs","pages","status","ok","bytes"],"properties":{"id":{"type":"string"},"versionId":{"type":"string"},"operation":{"type":"string"},"surface":{"enum":["rest","grpc","mcp"]},"tokenId":{"type":["string","null"]},"startedAt":{"type":"string","format":"date-time"},"providerDurationMs":{"type":"number"},"pages":{"type":"integer"},"status":{"type":"integer"},"ok":{"type":"boolean"},"bytes":{"type":"integer"},"sha256":{"type":["string","null"]},"errorCode":{"type":["string","null"]},"attempts":{"type":"array","description":"Present only when a provider request was sent more than once (docs/guides/retries-and-idempotency.md).","items":{"$ref":"engine.json#/components/schemas/Attempt"}},"traceId":{"type":"string","pattern":"^[0-9a-f]{32}$","description":"The W3C trace ID the call ran in (the caller's, when its request carried a `traceparent`). Present only while the Engine traced (docs/operations/observability.md)."}}};
const schema97 = {"type":"object","description":"One provider attempt of a retried call.","required":["durationMs","waitMs"],"properties":{"status":{"type":"integer","description":"The provider's HTTP status, when it answered."},"error":{"type":"string","description":"The Engine's code for an attempt that got no answer (PROVIDER_UNREACHABLE, PROVIDER_TIMEOUT, ENGINE_OUTCOME_UNKNOWN)."},"durationMs":{"type":"number","description":"Time spent on this attempt."},"waitMs":{"type":"number","description":"Time waited before this attempt (0 for the first)."},"page":{"type":"integer","description":"The page this attempt read","for a paged call.":null}}};
const pattern12 = new RegExp("^[0-9a-f]{32}$", "u");

function validate62(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate62.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.versionId === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "versionId"},message:"must have required property '"+"versionId"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operation === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operation"},message:"must have required property '"+"operation"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.surface === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "surface"},message:"must have required property '"+"surface"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.startedAt === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "startedAt"},message:"must have required property '"+"startedAt"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.providerDurationMs === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "providerDurationMs"},message:"must have required property '"+"providerDurationMs"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data.pages === undefined){
const err6 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "pages"},message:"must have required property '"+"pages"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data.status === undefined){
const err7 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data.ok === undefined){
const err8 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "ok"},message:"must have required property '"+"ok"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data.bytes === undefined){
const err9 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "bytes"},message:"must have required property '"+"bytes"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data.id !== undefined){
if(typeof data.id !== "string"){
const err10 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.versionId !== undefined){
if(typeof data.versionId !== "string"){
const err11 = {instancePath:instancePath+"/versionId",schemaPath:"#/properties/versionId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operation !== undefined){
if(typeof data.operation !== "string"){
const err12 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.surface !== undefined){
let data3 = data.surface;
if(!(((data3 === "rest") || (data3 === "grpc")) || (data3 === "mcp"))){
const err13 = {instancePath:instancePath+"/surface",schemaPath:"#/properties/surface/enum",keyword:"enum",params:{allowedValues: schema96.properties.surface.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.tokenId !== undefined){
let data4 = data.tokenId;
if((typeof data4 !== "string") && (data4 !== null)){
const err14 = {instancePath:instancePath+"/tokenId",schemaPath:"#/properties/tokenId/type",keyword:"type",params:{type: schema96.properties.tokenId.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.startedAt !== undefined){
let data5 = data.startedAt;
if(typeof data5 === "string"){
if(!(formats0.validate(data5))){
const err15 = {instancePath:instancePath+"/startedAt",schemaPath:"#/properties/startedAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/startedAt",schemaPath:"#/properties/startedAt/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.providerDurationMs !== undefined){
if(!(typeof data.providerDurationMs == "number")){
const err17 = {instancePath:instancePath+"/providerDurationMs",schemaPath:"#/properties/providerDurationMs/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.pages !== undefined){
let data7 = data.pages;
if(!((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7)))){
const err18 = {instancePath:instancePath+"/pages",schemaPath:"#/properties/pages/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.status !== undefined){
let data8 = data.status;
if(!((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8)))){
const err19 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.ok !== undefined){
if(typeof data.ok !== "boolean"){
const err20 = {instancePath:instancePath+"/ok",schemaPath:"#/properties/ok/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.bytes !== undefined){
let data10 = data.bytes;
if(!((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10)))){
const err21 = {instancePath:instancePath+"/bytes",schemaPath:"#/properties/bytes/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.sha256 !== undefined){
let data11 = data.sha256;
if((typeof data11 !== "string") && (data11 !== null)){
const err22 = {instancePath:instancePath+"/sha256",schemaPath:"#/properties/sha256/type",keyword:"type",params:{type: schema96.properties.sha256.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.errorCode !== undefined){
let data12 = data.errorCode;
if((typeof data12 !== "string") && (data12 !== null)){
const err23 = {instancePath:instancePath+"/errorCode",schemaPath:"#/properties/errorCode/type",keyword:"type",params:{type: schema96.properties.errorCode.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.attempts !== undefined){
let data13 = data.attempts;
if(Array.isArray(data13)){
const len0 = data13.length;
for(let i0=0; i0<len0; i0++){
let data14 = data13[i0];
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.durationMs === undefined){
const err24 = {instancePath:instancePath+"/attempts/" + i0,schemaPath:"engine.json#/components/schemas/Attempt/required",keyword:"required",params:{missingProperty: "durationMs"},message:"must have required property '"+"durationMs"+"'"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(data14.waitMs === undefined){
const err25 = {instancePath:instancePath+"/attempts/" + i0,schemaPath:"engine.json#/components/schemas/Attempt/required",keyword:"required",params:{missingProperty: "waitMs"},message:"must have required property '"+"waitMs"+"'"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(data14.status !== undefined){
let data15 = data14.status;
if(!((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15)))){
const err26 = {instancePath:instancePath+"/attempts/" + i0+"/status",schemaPath:"engine.json#/components/schemas/Attempt/properties/status/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data14.error !== undefined){
if(typeof data14.error !== "string"){
const err27 = {instancePath:instancePath+"/attempts/" + i0+"/error",schemaPath:"engine.json#/components/schemas/Attempt/properties/error/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data14.durationMs !== undefined){
if(!(typeof data14.durationMs == "number")){
const err28 = {instancePath:instancePath+"/attempts/" + i0+"/durationMs",schemaPath:"engine.json#/components/schemas/Attempt/properties/durationMs/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data14.waitMs !== undefined){
if(!(typeof data14.waitMs == "number")){
const err29 = {instancePath:instancePath+"/attempts/" + i0+"/waitMs",schemaPath:"engine.json#/components/schemas/Attempt/properties/waitMs/type",keyword:"type",params:{type: "number"},message:"must be number"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data14.page !== undefined){
let data19 = data14.page;
if(!((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19)))){
const err30 = {instancePath:instancePath+"/attempts/" + i0+"/page",schemaPath:"engine.json#/components/schemas/Attempt/properties/page/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath:instancePath+"/attempts/" + i0,schemaPath:"engine.json#/components/schemas/Attempt/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath:instancePath+"/attempts",schemaPath:"#/properties/attempts/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data.traceId !== undefined){
let data20 = data.traceId;
if(typeof data20 === "string"){
if(!pattern12.test(data20)){
const err33 = {instancePath:instancePath+"/traceId",schemaPath:"#/properties/traceId/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{32}$"},message:"must match pattern \""+"^[0-9a-f]{32}$"+"\""};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
else {
const err34 = {instancePath:instancePath+"/traceId",schemaPath:"#/properties/traceId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
}
else {
const err35 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
validate62.errors = vErrors;
return errors === 0;
}
validate62.evaluated = {"props":{"id":true,"versionId":true,"operation":true,"surface":true,"tokenId":true,"startedAt":true,"providerDurationMs":true,"pages":true,"status":true,"ok":true,"bytes":true,"sha256":true,"errorCode":true,"attempts":true,"traceId":true},"dynamicProps":false,"dynamicItems":false};


function validate61(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-listReceipts" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate61.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.receipts === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "receipts"},message:"must have required property '"+"receipts"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.next === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "next"},message:"must have required property '"+"next"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.receipts !== undefined){
let data0 = data.receipts;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
if(!(validate62(data0[i0], {instancePath:instancePath+"/receipts/" + i0,parentData:data0,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate62.errors : vErrors.concat(validate62.errors);
errors = vErrors.length;
}
}
}
else {
const err2 = {instancePath:instancePath+"/receipts",schemaPath:"#/properties/receipts/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.next !== undefined){
let data2 = data.next;
if((typeof data2 !== "string") && (data2 !== null)){
const err3 = {instancePath:instancePath+"/next",schemaPath:"#/properties/next/type",keyword:"type",params:{type: schema95.properties.next.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate61.errors = vErrors;
return errors === 0;
}
validate61.evaluated = {"props":{"receipts":true,"next":true},"dynamicProps":false,"dynamicItems":false};

export const createExecution = validate64;
const schema98 = {"$id":"response-createExecution","$ref":"engine.json#/components/schemas/Envelope"};
const schema99 = {"type":"object","required":["ok","status","data","error"],"properties":{"ok":{"type":"boolean"},"status":{"type":"integer"},"data":{},"error":{"oneOf":[{"type":"null"},{"$ref":"engine.json#/components/schemas/EnvelopeError"}]},"continuation":{"$ref":"engine.json#/components/schemas/Continuation"}}};
const schema100 = {"type":"object","required":["code","message","retryable"],"properties":{"code":{"type":"string"},"message":{"type":"string"},"retryable":{"type":"boolean"},"details":{"type":"object"},"recovery":{"type":"object"}}};
const schema101 = {"type":"object","description":"Present only when a caller bound (`pagination.maxPages`) stopped a traversal before the\nprovider's last page: more pages follow. `input` holds what to add to the same input to read\non (the cursor, offset, page or Link-header page parameter); absent when the next page is\nreachable only through a link the Engine cannot take as input.\n","required":["more"],"properties":{"more":{"const":true},"input":{"type":"object"}}};

function validate65(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate65.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.ok === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "ok"},message:"must have required property '"+"ok"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.status === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.data === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "data"},message:"must have required property '"+"data"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.error === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "error"},message:"must have required property '"+"error"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.ok !== undefined){
if(typeof data.ok !== "boolean"){
const err4 = {instancePath:instancePath+"/ok",schemaPath:"#/properties/ok/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.status !== undefined){
let data1 = data.status;
if(!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))){
const err5 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.error !== undefined){
let data2 = data.error;
const _errs6 = errors;
let valid1 = false;
let passing0 = null;
const _errs7 = errors;
if(data2 !== null){
const err6 = {instancePath:instancePath+"/error",schemaPath:"#/properties/error/oneOf/0/type",keyword:"type",params:{type: "null"},message:"must be null"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var _valid0 = _errs7 === errors;
if(_valid0){
valid1 = true;
passing0 = 0;
}
const _errs9 = errors;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.code === undefined){
const err7 = {instancePath:instancePath+"/error",schemaPath:"engine.json#/components/schemas/EnvelopeError/required",keyword:"required",params:{missingProperty: "code"},message:"must have required property '"+"code"+"'"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(data2.message === undefined){
const err8 = {instancePath:instancePath+"/error",schemaPath:"engine.json#/components/schemas/EnvelopeError/required",keyword:"required",params:{missingProperty: "message"},message:"must have required property '"+"message"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data2.retryable === undefined){
const err9 = {instancePath:instancePath+"/error",schemaPath:"engine.json#/components/schemas/EnvelopeError/required",keyword:"required",params:{missingProperty: "retryable"},message:"must have required property '"+"retryable"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data2.code !== undefined){
if(typeof data2.code !== "string"){
const err10 = {instancePath:instancePath+"/error/code",schemaPath:"engine.json#/components/schemas/EnvelopeError/properties/code/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data2.message !== undefined){
if(typeof data2.message !== "string"){
const err11 = {instancePath:instancePath+"/error/message",schemaPath:"engine.json#/components/schemas/EnvelopeError/properties/message/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data2.retryable !== undefined){
if(typeof data2.retryable !== "boolean"){
const err12 = {instancePath:instancePath+"/error/retryable",schemaPath:"engine.json#/components/schemas/EnvelopeError/properties/retryable/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data2.details !== undefined){
let data6 = data2.details;
if(!(data6 && typeof data6 == "object" && !Array.isArray(data6))){
const err13 = {instancePath:instancePath+"/error/details",schemaPath:"engine.json#/components/schemas/EnvelopeError/properties/details/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data2.recovery !== undefined){
let data7 = data2.recovery;
if(!(data7 && typeof data7 == "object" && !Array.isArray(data7))){
const err14 = {instancePath:instancePath+"/error/recovery",schemaPath:"engine.json#/components/schemas/EnvelopeError/properties/recovery/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/error",schemaPath:"engine.json#/components/schemas/EnvelopeError/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs9 === errors;
if(_valid0 && valid1){
valid1 = false;
passing0 = [passing0, 1];
}
else {
if(_valid0){
valid1 = true;
passing0 = 1;
var props0 = {};
props0.code = true;
props0.message = true;
props0.retryable = true;
props0.details = true;
props0.recovery = true;
}
}
if(!valid1){
const err16 = {instancePath:instancePath+"/error",schemaPath:"#/properties/error/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
else {
errors = _errs6;
if(vErrors !== null){
if(_errs6){
vErrors.length = _errs6;
}
else {
vErrors = null;
}
}
}
}
if(data.continuation !== undefined){
let data8 = data.continuation;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.more === undefined){
const err17 = {instancePath:instancePath+"/continuation",schemaPath:"engine.json#/components/schemas/Continuation/required",keyword:"required",params:{missingProperty: "more"},message:"must have required property '"+"more"+"'"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(data8.more !== undefined){
if(true !== data8.more){
const err18 = {instancePath:instancePath+"/continuation/more",schemaPath:"engine.json#/components/schemas/Continuation/properties/more/const",keyword:"const",params:{allowedValue: true},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data8.input !== undefined){
let data10 = data8.input;
if(!(data10 && typeof data10 == "object" && !Array.isArray(data10))){
const err19 = {instancePath:instancePath+"/continuation/input",schemaPath:"engine.json#/components/schemas/Continuation/properties/input/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/continuation",schemaPath:"engine.json#/components/schemas/Continuation/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
validate65.errors = vErrors;
return errors === 0;
}
validate65.evaluated = {"props":{"ok":true,"status":true,"data":true,"error":true,"continuation":true},"dynamicProps":false,"dynamicItems":false};


function validate64(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="response-createExecution" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate64.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate65(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate65.errors : vErrors.concat(validate65.errors);
errors = vErrors.length;
}
validate64.errors = vErrors;
return errors === 0;
}
validate64.evaluated = {"props":{"ok":true,"status":true,"data":true,"error":true,"continuation":true},"dynamicProps":false,"dynamicItems":false};
